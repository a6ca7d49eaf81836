// ldsopt-split-attention leaves an attention of a dynamic key count (decode against a cache read
// at run time) unsplit, with the remark: its chunks would not be equal. ldsopt-attention's kernel
// takes it whole, its key splits within a workgroup.
// RUN: lds-opt %s --verify-diagnostics --remarks=missed --target=cuda --pass-pipeline='builtin.module(ldsopt-split-attention)' | filecheck %s

// CHECK-LABEL: func.func @decode_dynamic_keys
// CHECK-NOT:     online_attention
// CHECK:         iree_linalg_ext.attention
func.func @decode_dynamic_keys(%q: tensor<1x32x1x128xf16>, %k: tensor<1x32x?x128xf16>, %v: tensor<1x32x?x128xf16>) -> tensor<1x32x1x128xf16> {
  %scale = arith.constant 0.088388 : f16
  %e = tensor.empty() : tensor<1x32x1x128xf16>
  // expected-remark @+1 {{ldsopt-split-attention: left alone: dynamic shapes (extents read at run time): splits a key count known here into equal chunks, for query rows known to be few; left unsplit, to ldsopt-attention's kernel (its key splits in a workgroup)}}
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x32x1x128xf16>, tensor<1x32x?x128xf16>, tensor<1x32x?x128xf16>, f16)
      outs(%e : tensor<1x32x1x128xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x32x1x128xf16>
  return %o : tensor<1x32x1x128xf16>
}
