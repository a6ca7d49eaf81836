func.func @main(%x: tensor<1x9x11x20xf32>) -> tensor<1x7x9x20xf32> {
  %init = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x9x20xf32>
  %f = linalg.fill ins(%init : f32) outs(%e : tensor<1x7x9x20xf32>) -> tensor<1x7x9x20xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %y = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %win : tensor<1x9x11x20xf32>, tensor<3x3xf32>) outs(%f : tensor<1x7x9x20xf32>) -> tensor<1x7x9x20xf32>
  %e2 = tensor.empty() : tensor<1x7x9x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x7x9x20xf32>) outs(%e2 : tensor<1x7x9x20xf32>) {
    ^bb0(%v: f32, %out: f32):
      %d = arith.constant 9.0 : f32
      %q = arith.divf %v, %d : f32
      linalg.yield %q : f32
  } -> tensor<1x7x9x20xf32>
  return %r : tensor<1x7x9x20xf32>
}
