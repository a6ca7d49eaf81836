// Reduction over two non-adjacent dims (0 and 2).
func.func @main(%x0: tensor<8x16x32xf32>) -> tensor<16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x0 : tensor<8x16x32xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.addf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
