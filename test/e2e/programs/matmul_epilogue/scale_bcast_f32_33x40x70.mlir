// matmul scaled per column by a (1, n) tensor broadcast over m (a keepdim scale, read through
// (m, n) -> (0, n)), all f32.
func.func @main(%a: tensor<33x70xf32>, %b: tensor<70x40xf32>, %s: tensor<1x40xf32>) -> tensor<33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x70xf32>, tensor<70x40xf32>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (0, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s : tensor<33x40xf32>, tensor<1x40xf32>) outs(%e : tensor<33x40xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<33x40xf32>
  return %r : tensor<33x40xf32>
}
