// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s

// The sum and the max of each row (16x1000 f32) in one generic with two results: one sweep
// carrying two accumulators, each combined by its own op over the lanes and through its own
// LDS buffer (one barrier for both), two stored results.
// CHECK-LABEL: func.func @sum_max
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lds_partials = array<i64: 32, 1>, {{.*}} passes = 1 : i64
// CHECK:         %[[SUMS:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<16xf32
// CHECK:         %[[MAXS:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<16xf32
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS_S:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[LDS_M:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] =
// CHECK:           scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK:             %[[V:.+]] = vector.transfer_read
// CHECK:             %[[S:.+]] = arith.addf %[[V]], %{{.+}} : vector<4xf32>
// CHECK:             %[[M:.+]] = arith.maximumf %[[V]], %{{.+}} : vector<4xf32>
// CHECK:             scf.yield %[[S]], %[[M]]
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[PS:.+]] = arith.addf
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[PM:.+]] = arith.maximumf
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %[[PS]], %[[LDS_S]][%[[SG]], %c0]
// CHECK-NEXT:        memref.store %[[PM]], %[[LDS_M]][%[[SG]], %c0]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for %[[K:.+]] = %[[LANE]] to %c32 step %c8
// CHECK-NEXT:        memref.load %[[LDS_S]][%[[K]], %c0]
// CHECK:           scf.for %[[K2:.+]] = %[[LANE]] to %c32 step %c8
// CHECK-NEXT:        memref.load %[[LDS_M]][%[[K2]], %c0]
// CHECK:           scf.if %{{.+}} {
// CHECK-NEXT:        memref.store %{{.+}}, %[[SUMS]][%[[ROW]]]
// CHECK-NEXT:        memref.store %{{.+}}, %[[MAXS]][%[[ROW]]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @sum_max() {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %4 = tensor.empty() : tensor<16xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<16xf32>) -> tensor<16xf32>
  %6 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<16xf32>) -> tensor<16xf32>
  %7:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<16x1000xf32>) outs(%5, %6 : tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32, %out_1: f32):
    %8 = arith.addf %in, %out : f32
    %9 = arith.maximumf %in, %out_1 : f32
    linalg.yield %8, %9 : f32, f32
  } -> (tensor<16xf32>, tensor<16xf32>)
  iree_tensor_ext.dispatch.tensor.store %7#0, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  iree_tensor_ext.dispatch.tensor.store %7#1, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  return
}
