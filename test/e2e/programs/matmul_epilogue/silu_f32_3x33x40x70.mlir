// batch 3: batch_matmul + SiLU as torch decomposes it, x * sigmoid(x) with sigmoid 1 / (1 + exp(-x)),
// all f32.
func.func @main(%a: tensor<3x33x70xf32>, %b: tensor<3x70x40xf32>) -> tensor<3x33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<3x33x70xf32>, tensor<3x70x40xf32>) outs(%z : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<3x33x40xf32>) outs(%e : tensor<3x33x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %nx = arith.negf %x : f32
    %ex = math.exp %nx : f32
    %d = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %d : f32
    %s = arith.mulf %x, %sig : f32
    linalg.yield %s : f32
  } -> tensor<3x33x40xf32>
  return %r : tensor<3x33x40xf32>
}
