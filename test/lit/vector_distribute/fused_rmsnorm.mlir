// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256}, canonicalize, cse)' | filecheck %s

// The RMSNorm dispatch IREE 3.13 forms on Vulkan (16x1000 f32): the sum of squares and a
// consumer x * rsqrt(sum / 1000 + eps) * gamma (IREE fuses the row map into the consumer), gamma
// a column operand read through (d1). Vectors of 4 (one a thread, threads 250 and up masked), x
// and gamma loaded once and kept; the sum through shuffles and LDS; the consumer writes.
// CHECK-LABEL: func.func @rmsnorm
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lds_partials = array<i64: 32, 1>, {{.*}} passes = 2 : i64, {{.*}} row = "registers"
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<16x1000xf32
// CHECK:         %[[G:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<1000xf32
// CHECK:         %[[Y:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<16x1000xf32
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c16 step %c16 {
// CHECK:           %[[OWNS:.+]] = arith.cmpi ult, %[[TID]], %c250
// CHECK:           %[[COL:.+]] = arith.muli %{{.+}}, %c4
// CHECK:           %[[V:.+]] = vector.transfer_read %[[X]][%[[ROW]], %[[COL]]]
// CHECK:           %[[GV:.+]] = vector.transfer_read %[[G]][%[[COL]]]
// CHECK:           %[[SQ:.+]] = arith.mulf %[[V]], %[[V]] : vector<4xf32>
// CHECK:           arith.addf %[[SQ]], %{{.+}} : vector<4xf32>
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %{{.+}}, %[[LDS]][%[[SG]], %c0] : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for %[[K:.+]] = %[[LANE]] to %c32 step %c8
// CHECK-NEXT:        memref.load %[[LDS]][%[[K]], %c0] : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[TOTAL:.+]] = arith.addf
// CHECK:           %[[SUM:.+]] = arith.addf %[[TOTAL]], %{{.+}} : f32
// CHECK:           scf.if %[[OWNS]] {
// CHECK-NEXT:        %[[SUMV:.+]] = vector.broadcast %[[SUM]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[MS:.+]] = arith.divf %[[SUMV]], %{{.+}} : vector<4xf32>
// CHECK-NEXT:        %[[MSE:.+]] = arith.addf %[[MS]], %{{.+}} : vector<4xf32>
// CHECK-NEXT:        %[[R:.+]] = math.rsqrt %[[MSE]] : vector<4xf32>
// CHECK-NEXT:        %[[N:.+]] = arith.mulf %[[V]], %[[R]] : vector<4xf32>
// CHECK-NEXT:        %[[OUT:.+]] = arith.mulf %[[N]], %[[GV]] : vector<4xf32>
// CHECK-NEXT:        vector.transfer_write %[[OUT]], %[[Y]][%[[ROW]], %[[COL]]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @rmsnorm() {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 1.000000e+03 : f32
  %cst_1 = arith.constant 9.99999997E-7 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1000xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x1000xf32>>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [1000], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1000xf32>> -> tensor<1000xf32>
  %5 = tensor.empty() : tensor<16x1000xf32>
  %6 = tensor.empty() : tensor<16xf32>
  %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<16xf32>) -> tensor<16xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<16x1000xf32>) outs(%7 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %10 = arith.mulf %in, %in : f32
    %11 = arith.addf %10, %out : f32
    linalg.yield %11 : f32
  } -> tensor<16xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3, %8, %4 : tensor<16x1000xf32>, tensor<16xf32>, tensor<1000xf32>) outs(%5 : tensor<16x1000xf32>) {
  ^bb0(%in: f32, %in_2: f32, %in_3: f32, %out: f32):
    %10 = arith.divf %in_2, %cst_0 : f32
    %11 = arith.addf %10, %cst_1 : f32
    %12 = math.rsqrt %11 : f32
    %13 = arith.mulf %in, %12 : f32
    %14 = arith.mulf %13, %in_3 : f32
    linalg.yield %14 : f32
  } -> tensor<16x1000xf32>
  iree_tensor_ext.dispatch.tensor.store %9, %2, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : tensor<16x1000xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x1000xf32>>
  return
}
