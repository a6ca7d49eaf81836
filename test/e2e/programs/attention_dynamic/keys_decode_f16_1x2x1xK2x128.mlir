// One query row against a key cache whose length is read at run time (decode), head dim 128:
// ldsopt-split-attention leaves a dynamic key count unsplit, the kernel's key splits take it.
func.func @main(%q: tensor<1x2x1x128xf16>, %k: tensor<1x2x?x128xf16>, %v: tensor<1x2x?x128xf16>) -> tensor<1x2x1x128xf16> {
  %scale = arith.constant 0.088388 : f16
  %e = tensor.empty() : tensor<1x2x1x128xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x2x1x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, f16)
      outs(%e : tensor<1x2x1x128xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x1x128xf16>
  return %o : tensor<1x2x1x128xf16>
}
