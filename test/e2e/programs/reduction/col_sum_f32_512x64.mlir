// Sum over the outer dim: vectors and lanes run along the outputs.
func.func @main(%x0: tensor<512x64xf32>) -> tensor<64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x0 : tensor<512x64xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.addf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
