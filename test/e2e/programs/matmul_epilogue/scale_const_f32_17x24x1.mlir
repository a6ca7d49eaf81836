// K = 1: matmul scaled by a scalar constant (an attention-score-like 1/sqrt(d)), f32.
func.func @main(%a: tensor<17x1xf32>, %b: tensor<1x24xf32>) -> tensor<17x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<17x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<17x24xf32>) -> tensor<17x24xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<17x1xf32>, tensor<1x24xf32>) outs(%z : tensor<17x24xf32>) -> tensor<17x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<17x24xf32>) outs(%e : tensor<17x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.constant 0.125 : f32
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<17x24xf32>
  return %r : tensor<17x24xf32>
}
