// A batch matmul written as a generic whose loops run (n, k, b, m): the output (b, m, n)
// names them; A is (b, m, k), B (b, k, n). Batch 3, tails.
func.func @main(%a: tensor<3x20x40xf32>, %b: tensor<3x40x36xf32>) -> tensor<3x20x36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x20x36xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x20x36xf32>) -> tensor<3x20x36xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, k, b, m) -> (b, m, k)>, affine_map<(n, k, b, m) -> (b, k, n)>, affine_map<(n, k, b, m) -> (b, m, n)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%a, %b : tensor<3x20x40xf32>, tensor<3x40x36xf32>) outs(%z : tensor<3x20x36xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x20x36xf32>
  return %r : tensor<3x20x36xf32>
}
