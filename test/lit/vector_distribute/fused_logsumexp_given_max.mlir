// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s

// The second dispatch IREE 3.13 forms on Vulkan from logsumexp as generics (16x1000 f32): the
// row max comes in loaded; the dispatch sums exp(x - max) and stores log(sum) + max (a row map).
// CHECK-LABEL: func.func @logsumexp_given_max
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lds_partials = array<i64: 32, 1>, {{.*}} passes = 1 : i64
// CHECK:         %[[MAXB:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<16xf32
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<16xf32
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] =
// CHECK:           %[[M:.+]] = memref.load %[[MAXB]][%[[ROW]]]
// CHECK:           scf.for
// CHECK:             %[[V:.+]] = vector.transfer_read
// CHECK:             %[[MV:.+]] = vector.broadcast %[[M]] : f32 to vector<4xf32>
// CHECK:             %[[D:.+]] = arith.subf %[[V]], %[[MV]] : vector<4xf32>
// CHECK:             %[[E:.+]] = math.exp %[[D]] : vector<4xf32>
// CHECK:             arith.addf %[[E]], %{{.+}} : vector<4xf32>
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
// CHECK:           %[[L:.+]] = math.log %[[SUM]] : f32
// CHECK:           %[[LSE:.+]] = arith.addf %[[L]], %[[M]] : f32
// CHECK:           scf.if %{{.+}} {
// CHECK-NEXT:        memref.store %[[LSE]], %[[OUT]][%[[ROW]]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @logsumexp_given_max() {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [16], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>> -> tensor<16xf32>
  %5 = tensor.empty() : tensor<16xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<16xf32>) -> tensor<16xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%3, %4 : tensor<16x1000xf32>, tensor<16xf32>) outs(%6 : tensor<16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %9 = arith.subf %in, %in_0 : f32
    %10 = math.exp %9 : f32
    %11 = arith.addf %10, %out : f32
    linalg.yield %11 : f32
  } -> tensor<16xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%7, %4 : tensor<16xf32>, tensor<16xf32>) outs(%5 : tensor<16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %9 = math.log %in : f32
    %10 = arith.addf %9, %in_0 : f32
    linalg.yield %10 : f32
  } -> tensor<16xf32>
  iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  return
}
