// V held with its keys innermost ([B, H, D, S_kv], as IREE forms a PyTorch BERT's V), f16, 37
// queries against 48 keys: on CUDA the mma.sync kernel stages V^T as it is and reads it plainly.
func.func @main(%q: tensor<1x2x37x64xf16>, %k: tensor<1x2x48x64xf16>, %v: tensor<1x2x64x48xf16>) -> tensor<1x2x37x64xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<1x2x37x64xf16>
  %a = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, n, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x2x37x64xf16>, tensor<1x2x48x64xf16>, tensor<1x2x64x48xf16>, f16)
      outs(%e : tensor<1x2x37x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x37x64xf16>
  return %a : tensor<1x2x37x64xf16>
}
