// Causal self-attention of a sequence of run-time length S, f16, 4 heads of 64: the matrix-core
// kernels (mma.sync, wgmma) with both extents dynamic and the key tiles past the diagonal skipped.
func.func @main(%q: tensor<1x4x?x64xf16>, %k: tensor<1x4x?x64xf16>, %v: tensor<1x4x?x64xf16>) -> tensor<1x4x?x64xf16> {
  %c2 = arith.constant 2 : index
  %s = tensor.dim %q, %c2 : tensor<1x4x?x64xf16>
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty(%s) : tensor<1x4x?x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, f16)
      outs(%e : tensor<1x4x?x64xf16>) {
    ^bb0(%x: f32):
      %i = iree_linalg_ext.index 2 : index
      %j = iree_linalg_ext.index 5 : index
      %c = arith.cmpi ugt, %j, %i : index
      %ninf = arith.constant 0xFF800000 : f32
      %r = arith.select %c, %ninf, %x : f32
      iree_linalg_ext.yield %r : f32
  } -> tensor<1x4x?x64xf16>
  return %o : tensor<1x4x?x64xf16>
}
