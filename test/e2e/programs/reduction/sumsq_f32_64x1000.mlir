// Fused producer: sum of x*x.
func.func @main(%x0: tensor<64x1000xf32>) -> tensor<64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<64x1000xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %sq = arith.mulf %in0, %in0 : f32
    %s = arith.addf %sq, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
