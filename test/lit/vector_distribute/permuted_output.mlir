// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A reduction whose output holds the kept dims in another order than the input, as IREE
// configures out[c, a] = sum_b x[a, b, c] (iterators interchanged, the reduction last): the
// kernel numbers the 30 outputs in the input's order of the kept dims (a, c) and stores each
// total where the output's order puts it, out[c][a].
// CHECK-LABEL: func.func @sum_middle_permuted
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    parallel_dims = array<i64: 0, 2>, reduced_dims = array<i64: 1>
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<6x5xf32
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK-NEXT:      %[[I:.+]] = arith.addi
// CHECK-NEXT:      %[[C:.+]] = arith.remui %[[I]], %c6 : index
// CHECK-NEXT:      %[[A:.+]] = arith.divui %[[I]], %c6 : index
// CHECK-NEXT:      %[[T:.+]] = arith.addf
// CHECK-NEXT:      memref.store %[[T]], %[[OUT]][%[[C]], %[[A]]] : memref<6x5xf32
func.func @sum_middle_permuted() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<5x77x6xf32>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x5xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [5, 77, 6], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<5x77x6xf32>> -> tensor<5x77x6xf32>
  %3 = tensor.empty() : tensor<6x5xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<6x5xf32>) -> tensor<6x5xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%2 : tensor<5x77x6xf32>) outs(%4 : tensor<6x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<6x5xf32>
  iree_tensor_ext.dispatch.tensor.store %5, %1, offsets = [0, 0], sizes = [6, 5], strides = [1, 1] : tensor<6x5xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x5xf32>>
  return
}
