// V held keys innermost (as IREE forms a PyTorch export's V) of a sequence read at run time, f16,
// head dim 64: the FMA kernel on every target (IREE 3.13 cannot compile it: "Padding
// OnlineAttention without existing mask is not yet supported").
func.func @main(%q: tensor<2x?x64xf16>, %k: tensor<2x?x64xf16>, %v: tensor<2x64x?xf16>) -> tensor<2x?x64xf16> {
  %c1 = arith.constant 1 : index
  %s = tensor.dim %q, %c1 : tensor<2x?x64xf16>
  %scale = arith.constant 0.25 : f16
  %e = tensor.empty(%s) : tensor<2x?x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(h, m, n, k1, k2) -> (h, m, k1)>,
      affine_map<(h, m, n, k1, k2) -> (h, k2, k1)>,
      affine_map<(h, m, n, k1, k2) -> (h, n, k2)>,
      affine_map<(h, m, n, k1, k2) -> ()>,
      affine_map<(h, m, n, k1, k2) -> (h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<2x?x64xf16>, tensor<2x?x64xf16>, tensor<2x64x?xf16>, f16)
      outs(%e : tensor<2x?x64xf16>) {
    ^bb0(%x: f16):
      iree_linalg_ext.yield %x : f16
  } -> tensor<2x?x64xf16>
  return %o : tensor<2x?x64xf16>
}
