// An elementwise score region (a tanh soft cap), applied to the scores in IREE's log2 units.
func.func @main(%q: tensor<1x2x40x64xf32>, %k: tensor<1x2x50x64xf32>, %v: tensor<1x2x50x64xf32>) -> tensor<1x2x40x64xf32> {
  %scale = arith.constant 0.125000 : f32
  %e = tensor.empty() : tensor<1x2x40x64xf32>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x2x40x64xf32>, tensor<1x2x50x64xf32>, tensor<1x2x50x64xf32>, f32)
      outs(%e : tensor<1x2x40x64xf32>) {
    ^bb0(%s: f32):
      %c = arith.constant 5.0 : f32
      %d = arith.divf %s, %c : f32
      %t = math.tanh %d : f32
      %r = arith.mulf %t, %c : f32
      iree_linalg_ext.yield %r : f32
  } -> tensor<1x2x40x64xf32>
  return %o : tensor<1x2x40x64xf32>
}
