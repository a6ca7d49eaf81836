// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-pin-attention-reshapes)' | filecheck %s

// A grouped-query attention as ldsopt-raise-attention raises Llama's: Q computed (RoPE's product
// here a scaling) and split into (K/V head, repeat) for the attention. The split stays on the
// computed Q, behind the compute barrier; K and V, arguments, are left alone.
// CHECK-LABEL: func.func @gqa_split_of_computed_q
// CHECK:         %[[QR:.+]] = linalg.generic
// CHECK:         %[[B:.+]] = iree_tensor_ext.compute_barrier.end %[[QR]] : tensor<1x4x16x8xf32>
// CHECK-NOT:     util.optimization_barrier
// CHECK:         %[[QE:.+]] = tensor.expand_shape %[[B]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 16, 8]
// CHECK:         iree_linalg_ext.attention
// CHECK-SAME:      ins(%[[QE]], %arg1, %arg2,
func.func @gqa_split_of_computed_q(%q: tensor<1x4x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>)
    -> tensor<1x16x2x2x8xf32> {
  %two = arith.constant 2.0 : f32
  %scale = arith.constant 0.35355339 : f32
  %e = tensor.empty() : tensor<1x4x16x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : tensor<1x4x16x8xf32>) outs(%e : tensor<1x4x16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<1x4x16x8xf32>
  %qe = tensor.expand_shape %r [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 16, 8]
      : tensor<1x4x16x8xf32> into tensor<1x2x2x16x8xf32>
  %out = tensor.empty() : tensor<1x16x2x2x8xf32>
  %a = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, g, r, m, n, k1, k2) -> (b, g, r, m, k1)>,
      affine_map<(b, g, r, m, n, k1, k2) -> (b, g, k2, k1)>,
      affine_map<(b, g, r, m, n, k1, k2) -> (b, g, k2, n)>,
      affine_map<(b, g, r, m, n, k1, k2) -> ()>,
      affine_map<(b, g, r, m, n, k1, k2) -> (b, m, g, r, n)>]}>
      ins(%qe, %k, %v, %scale : tensor<1x2x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, f32)
      outs(%out : tensor<1x16x2x2x8xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x16x2x2x8xf32>
  return %a : tensor<1x16x2x2x8xf32>
}

// -----

// An attention already in the program (a PyTorch export's SDPA, as IREE's torch lowering writes
// it): Q merged to [batch x heads] from a computed value (RoPE's product) is kept on it behind
// the compute barrier; K merged from a head transpose (data moved, not computed) is left to IREE,
// which folds that transpose into the attention's reads.
// CHECK-LABEL: func.func @sdpa_computed_q
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:         %[[B:.+]] = iree_tensor_ext.compute_barrier.end %[[R]] : tensor<1x4x16x8xf32>
// CHECK:         %[[Q:.+]] = tensor.collapse_shape %[[B]] {{\[\[}}0, 1], [2], [3]]
// CHECK:         %[[KT:.+]] = linalg.transpose
// CHECK-NOT:     compute_barrier
// CHECK:         %[[K:.+]] = tensor.collapse_shape %[[KT]]
// CHECK:         iree_linalg_ext.attention
// CHECK-SAME:      ins(%[[Q]], %[[K]],
func.func @sdpa_computed_q(%q: tensor<1x4x16x8xf32>, %cos: tensor<16x8xf32>, %k: tensor<1x16x4x8xf32>,
                           %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %e = tensor.empty() : tensor<1x4x16x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q, %cos : tensor<1x4x16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<1x4x16x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x4x16x8xf32>
  %qc = tensor.collapse_shape %r [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<1x16x4x8xf32>) outs(%e : tensor<1x4x16x8xf32>) permutation = [0, 2, 1, 3]
  %kc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %scale = arith.constant 0.35355339 : f32
  %out = tensor.empty() : tensor<4x16x8xf32>
  %a = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, m, n, k1, k2) -> (b, m, k1)>,
      affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>,
      affine_map<(b, m, n, k1, k2) -> (b, k2, n)>,
      affine_map<(b, m, n, k1, k2) -> ()>,
      affine_map<(b, m, n, k1, k2) -> (b, m, n)>]}>
      ins(%qc, %kc, %v, %scale : tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>, f32)
      outs(%out : tensor<4x16x8xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<4x16x8xf32>
  return %a : tensor<4x16x8xf32>
}

// -----

// Q, K and V split into heads from slices of a fused projection (ldsopt-fuse-projections' form,
// BERT's): nothing computed under the reshapes, so IREE may move them onto the projection's head
// split and read it in place; no barrier.
// CHECK-LABEL: func.func @heads_of_projection_slices
// CHECK-NOT:     compute_barrier
// CHECK:         iree_linalg_ext.attention
func.func @heads_of_projection_slices(%p: tensor<1x16x96xf32>) -> tensor<1x16x2x16xf32> {
  %scale = arith.constant 0.25 : f32
  %q = tensor.extract_slice %p[0, 0, 0] [1, 16, 32] [1, 1, 1] : tensor<1x16x96xf32> to tensor<1x16x32xf32>
  %k = tensor.extract_slice %p[0, 0, 32] [1, 16, 32] [1, 1, 1] : tensor<1x16x96xf32> to tensor<1x16x32xf32>
  %v = tensor.extract_slice %p[0, 0, 64] [1, 16, 32] [1, 1, 1] : tensor<1x16x96xf32> to tensor<1x16x32xf32>
  %qe = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf32> into tensor<1x16x2x16xf32>
  %ke = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf32> into tensor<1x16x2x16xf32>
  %ve = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf32> into tensor<1x16x2x16xf32>
  %out = tensor.empty() : tensor<1x16x2x16xf32>
  %a = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, m, h, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, k2, h, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, m, h, n)>]}>
      ins(%qe, %ke, %ve, %scale : tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>, f32)
      outs(%out : tensor<1x16x2x16xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x16x2x16xf32>
  return %a : tensor<1x16x2x16xf32>
}

// -----

// The same with the sequence dynamic (a PyTorch export's `torch.export.Dim`): the barrier
// carries the computed value's dynamic extent.
// CHECK-LABEL: func.func @sdpa_computed_q_dynamic
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:         %[[S:.+]] = tensor.dim %[[R]], %{{.+}} : tensor<1x4x?x8xf32>
// CHECK:         %[[B:.+]] = iree_tensor_ext.compute_barrier.end %[[R]] : tensor<1x4x?x8xf32>{%[[S]]}
// CHECK:         tensor.collapse_shape %[[B]] {{\[\[}}0, 1], [2], [3]]
// CHECK:         iree_linalg_ext.attention
func.func @sdpa_computed_q_dynamic(%q: tensor<1x4x?x8xf32>, %cos: tensor<?x8xf32>, %k: tensor<4x?x8xf32>,
                                   %v: tensor<4x?x8xf32>) -> tensor<4x?x8xf32> {
  %c2 = arith.constant 2 : index
  %s = tensor.dim %q, %c2 : tensor<1x4x?x8xf32>
  %e = tensor.empty(%s) : tensor<1x4x?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q, %cos : tensor<1x4x?x8xf32>, tensor<?x8xf32>) outs(%e : tensor<1x4x?x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x4x?x8xf32>
  %qc = tensor.collapse_shape %r [[0, 1], [2], [3]] : tensor<1x4x?x8xf32> into tensor<4x?x8xf32>
  %scale = arith.constant 0.35355339 : f32
  %out = tensor.empty(%s) : tensor<4x?x8xf32>
  %a = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, m, n, k1, k2) -> (b, m, k1)>,
      affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>,
      affine_map<(b, m, n, k1, k2) -> (b, k2, n)>,
      affine_map<(b, m, n, k1, k2) -> ()>,
      affine_map<(b, m, n, k1, k2) -> (b, m, n)>]}>
      ins(%qc, %k, %v, %scale : tensor<4x?x8xf32>, tensor<4x?x8xf32>, tensor<4x?x8xf32>, f32)
      outs(%out : tensor<4x?x8xf32>) {
    ^bb0(%x: f32):
      iree_linalg_ext.yield %x : f32
  } -> tensor<4x?x8xf32>
  return %a : tensor<4x?x8xf32>
}
