// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256}, canonicalize, cse)' | filecheck %s

// y = exp(x - max(x)) (16x1000 f32): the max and a consumer that reads the row again, from the
// registers it was loaded into.
// CHECK-LABEL: func.func @max_sub_exp
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lds_partials = array<i64: 32, 1>, {{.*}} passes = 2 : i64, {{.*}} row = "registers"
// CHECK:         %[[Y:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<16x1000xf32
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] =
// CHECK:           %[[OWNS:.+]] = arith.cmpi ult, %[[TID]], %c250
// CHECK:           %[[COL:.+]] = arith.muli %{{.+}}, %c4
// CHECK:           %[[V:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[COL]]]
// CHECK:           arith.select %{{.+}}, %[[V]], %{{.+}} : vector<4xi1>, vector<4xf32>
// CHECK:           arith.maximumf
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %{{.+}}, %[[LDS]][%[[SG]], %c0] : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for %[[K:.+]] = %[[LANE]] to %c32 step %c8
// CHECK-NEXT:        memref.load %[[LDS]][%[[K]], %c0] : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[MAX:.+]] = arith.maximumf
// CHECK:           scf.if %[[OWNS]] {
// CHECK-NEXT:        %[[MV:.+]] = vector.broadcast %[[MAX]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[D:.+]] = arith.subf %[[V]], %[[MV]] : vector<4xf32>
// CHECK-NEXT:        %[[E:.+]] = math.exp %[[D]] : vector<4xf32>
// CHECK-NEXT:        vector.transfer_write %[[E]], %[[Y]][%[[ROW]], %[[COL]]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @max_sub_exp() {
  %cst = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x1000xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %3 = tensor.empty() : tensor<16x1000xf32>
  %4 = tensor.empty() : tensor<16xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<16xf32>) -> tensor<16xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x1000xf32>) outs(%5 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %8 = arith.maximumf %in, %out : f32
    linalg.yield %8 : f32
  } -> tensor<16xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2, %6 : tensor<16x1000xf32>, tensor<16xf32>) outs(%3 : tensor<16x1000xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %8 = arith.subf %in, %in_0 : f32
    %9 = math.exp %8 : f32
    linalg.yield %9 : f32
  } -> tensor<16x1000xf32>
  iree_tensor_ext.dispatch.tensor.store %7, %1, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : tensor<16x1000xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x1000xf32>>
  return
}
