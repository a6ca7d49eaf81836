// TT f32: both transposed, odd sizes.
func.func @main(%a: tensor<70x33xf32>, %b: tensor<17x70xf32>) -> tensor<33x17xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x17xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<33x17xf32>) -> tensor<33x17xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<70x33xf32>, tensor<17x70xf32>) outs(%f : tensor<33x17xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<33x17xf32>
  return %r : tensor<33x17xf32>
}
