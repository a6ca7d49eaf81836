func.func @main(%x: tensor<2x13x12x7xf32>) -> tensor<2x5x4x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x4x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x4x7xf32>) -> tensor<2x5x4x7xf32>
  %win = tensor.empty() : tensor<5x5xf32>
  %y = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<2x13x12x7xf32>, tensor<5x5xf32>) outs(%f : tensor<2x5x4x7xf32>) -> tensor<2x5x4x7xf32>
  %e2 = tensor.empty() : tensor<2x5x4x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x5x4x7xf32>) outs(%e2 : tensor<2x5x4x7xf32>) {
    ^bb0(%v: f32, %out: f32):
      %d = arith.constant 25.0 : f32
      %q = arith.divf %v, %d : f32
      linalg.yield %q : f32
  } -> tensor<2x5x4x7xf32>
  return %r : tensor<2x5x4x7xf32>
}
