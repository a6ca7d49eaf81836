// Causal, bf16, head dim 128, 130 rows and keys (not a multiple of the tiles): the wgmma kernel on sm_90a.
func.func @main(%q: tensor<1x3x130x128xbf16>, %k: tensor<1x3x130x128xbf16>, %v: tensor<1x3x130x128xbf16>) -> tensor<1x3x130x128xbf16> {
  %scale = arith.constant 0.088388 : bf16
  %e = tensor.empty() : tensor<1x3x130x128xbf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x3x130x128xbf16>, tensor<1x3x130x128xbf16>, tensor<1x3x130x128xbf16>, bf16)
      outs(%e : tensor<1x3x130x128xbf16>) {
    ^bb0(%s: f32):
      %i = iree_linalg_ext.index 2 : index
      %j = iree_linalg_ext.index 5 : index
      %c = arith.cmpi ugt, %j, %i : index
      %ninf = arith.constant 0xFF800000 : f32
      %r = arith.select %c, %ninf, %s : f32
      iree_linalg_ext.yield %r : f32
  } -> tensor<1x3x130x128xbf16>
  return %o : tensor<1x3x130x128xbf16>
}
