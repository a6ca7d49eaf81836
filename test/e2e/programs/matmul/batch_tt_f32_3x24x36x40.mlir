// TT f32: batched, both transposed.
func.func @main(%a: tensor<3x40x24xf32>, %b: tensor<3x36x40xf32>) -> tensor<3x24x36xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x24x36xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<3x24x36xf32>) -> tensor<3x24x36xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x40x24xf32>, tensor<3x36x40xf32>) outs(%f : tensor<3x24x36xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x24x36xf32>
  return %r : tensor<3x24x36xf32>
}
