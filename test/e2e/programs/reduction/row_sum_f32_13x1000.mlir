// Row sums of 13 rows of 1000: 1000 is no multiple of the threads on a row.
func.func @main(%x0: tensor<13x1000xf32>) -> tensor<13xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<13xf32>) -> tensor<13xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<13x1000xf32>) outs(%f : tensor<13xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.addf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<13xf32>
  return %r : tensor<13xf32>
}
