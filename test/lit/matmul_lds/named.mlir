// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t

// The named forms of a matmul that IREE 3.13 accepts, and generics whose loops are permuted:
// each is the contraction the pass plans, its operands staged in their own memory order.

// `linalg.matmul` with indexing_maps, B transposed: what 3.13's MLIR writes for
// `linalg.matmul_transpose_b` (which it no longer parses; the tools upgrade old text to this).
// B (N x K) is staged K-contiguous.
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], {{.*}}operand = "A"
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["n", "k"], {{.*}}operand = "B"
// CHECK:         scf.for
// CHECK:           vector.fma
// CHECK-NOT:     linalg.matmul
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @matmul_transpose_b() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x32xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<48x32xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x48xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x32xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<48x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<48x32xf32>
  %e = tensor.empty() : tensor<64x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<64x32xf32>, tensor<48x32xf32>) outs(%z : tensor<64x48xf32>) -> tensor<64x48xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x48xf32> into memref<64x48xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @matmul_transpose_b {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
// -----

// `linalg.batch_matmul` with indexing_maps, A transposed (batch_matmul_transpose_a): the
// batch on the grid's z (3), A (B x K x M) staged M-contiguous.
// CHECK-LABEL: func.func @batch_matmul_transpose_a
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "m"], {{.*}}operand = "A"
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}operand = "B"
// CHECK:         gpu.block_id  z
// CHECK:       iree_codegen.dispatch_config @batch_matmul_transpose_a
// CHECK:         arith.constant 1 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 3 : index
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @batch_matmul_transpose_a() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x40x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x40x48xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<3x64x48xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<3x40x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x40x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<3x40x48xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x40x48xf32>
  %e = tensor.empty() : tensor<3x64x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<3x64x48xf32>) -> tensor<3x64x48xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%a, %b : tensor<3x40x64xf32>, tensor<3x40x48xf32>) outs(%z : tensor<3x64x48xf32>) -> tensor<3x64x48xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<3x64x48xf32> into memref<3x64x48xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @batch_matmul_transpose_a {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
// -----

// `linalg.contract`, both operands transposed (A as K x M, B as N x K).
// CHECK-LABEL: func.func @contract_tt
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "m"], {{.*}}operand = "A"
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["n", "k"], {{.*}}operand = "B"
// CHECK-NOT:     linalg.contract
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @contract_tt() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<48x32xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x48xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<32x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<48x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<48x32xf32>
  %e = tensor.empty() : tensor<64x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<32x64xf32>, tensor<48x32xf32>) outs(%z : tensor<64x48xf32>) -> tensor<64x48xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x48xf32> into memref<64x48xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @contract_tt {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
// -----

// A generic whose loops run (n, k, m): the output (m, n) names them, k is the loop it does
// not index. The same kernel as for loops (m, n, k): A (M x K) and B (K x N) staged in their
// order, the grid over (N / 64, M / 64).
// CHECK-LABEL: func.func @permuted_loops
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], {{.*}}operand = "A"
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}operand = "B"
// CHECK:       iree_codegen.dispatch_config @permuted_loops
// CHECK:         arith.constant 2 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 1 : index
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @permuted_loops() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x40xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<40x128xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x40xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x40xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<40x128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<40x128xf32>
  %e = tensor.empty() : tensor<64x128xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>, affine_map<(d0, d1, d2) -> (d2, d0)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : tensor<64x40xf32>, tensor<40x128xf32>) outs(%z : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x128xf32> into memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @permuted_loops {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
// -----

// Refused: the loop the output does not index is marked parallel (a sum over it is not what
// the body's accumulation says).
// CHECK-LABEL: func.func @k_not_reduced
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @k_not_reduced() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x40xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<40x128xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x40xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x40xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<40x128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<40x128xf32>
  %e = tensor.empty() : tensor<64x128xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: not a (batch) matmul: the loops are not (b?, m, n) parallel and k reduced}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>, affine_map<(d0, d1, d2) -> (d2, d0)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<64x40xf32>, tensor<40x128xf32>) outs(%z : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x128xf32> into memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @k_not_reduced {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
// -----

// Refused: two loops reduced (the output indexes one of three).
// CHECK-LABEL: func.func @two_reductions
// CHECK-NOT:     ldsopt.lowered_by
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @two_reductions() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x40xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<40x128xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x40xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x40xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<40x128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<40x128xf32>
  %e = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: not a (batch) matmul: the output is not (b?, m, n) with one reduced loop k}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a, %b : tensor<64x40xf32>, tensor<40x128xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64xf32> into memref<64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @two_reductions {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
