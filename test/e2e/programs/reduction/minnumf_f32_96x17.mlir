// minnumf over the outer dim.
func.func @main(%x0: tensor<96x17xf32>) -> tensor<17xf32> {
  %cst = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<17xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<17xf32>) -> tensor<17xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x0 : tensor<96x17xf32>) outs(%f : tensor<17xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.minnumf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<17xf32>
  return %r : tensor<17xf32>
}
