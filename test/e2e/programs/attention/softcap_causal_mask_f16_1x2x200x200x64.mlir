// A soft cap in the score region and a causal mask computed from its indices (select(k2 > m,
// -1e4, 0), as ldsopt-raise-attention makes GPT-2's): the key tiles past the diagonal are
// skipped and the mask applied only across it, while the cap, which is not the causal
// selection, stays on every tile visited; 200 rows and keys, several tiles below the diagonal.
func.func @main(%q: tensor<1x2x200x64xf16>, %k: tensor<1x2x200x64xf16>, %v: tensor<1x2x200x64xf16>) -> tensor<1x2x200x64xf16> {
  %scale = arith.constant 0.125000 : f16
  %past = arith.constant -1.000000e+04 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %me = tensor.empty() : tensor<200x200xf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%me : tensor<200x200xf16>) {
    ^bb0(%out: f16):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %c = arith.cmpi ugt, %j, %i : index
      %m = arith.select %c, %past, %zero : f16
      linalg.yield %m : f16
  } -> tensor<200x200xf16>
  %e = tensor.empty() : tensor<1x2x200x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<1x2x200x64xf16>, tensor<1x2x200x64xf16>, tensor<1x2x200x64xf16>, f16, tensor<200x200xf16>)
      outs(%e : tensor<1x2x200x64xf16>) {
    ^bb0(%s: f32):
      %c = arith.constant 0.5 : f32
      %d = arith.mulf %s, %c : f32
      %t = math.tanh %d : f32
      %r = arith.mulf %t, %c : f32
      iree_linalg_ext.yield %r : f32
  } -> tensor<1x2x200x64xf16>
  return %o : tensor<1x2x200x64xf16>
}
