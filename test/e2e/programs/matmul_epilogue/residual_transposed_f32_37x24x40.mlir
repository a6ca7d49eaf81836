// A product with a residual read transposed in its consumer (ConvNeXt's NCHW residual after its
// channels-last MLP): y[m, n] = (a b)[m, n] * s[n] + r[n, m].
func.func @main(%a: tensor<37x40xf32>, %b: tensor<40x24xf32>, %s: tensor<24xf32>, %r: tensor<24x37xf32>) -> tensor<37x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x24xf32>) -> tensor<37x24xf32>
  %p = linalg.matmul ins(%a, %b : tensor<37x40xf32>, tensor<40x24xf32>) outs(%f : tensor<37x24xf32>) -> tensor<37x24xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p, %s, %r : tensor<37x24xf32>, tensor<24xf32>, tensor<24x37xf32>) outs(%e : tensor<37x24xf32>) {
    ^bb0(%v: f32, %sc: f32, %res: f32, %o: f32):
      %m = arith.mulf %v, %sc : f32
      %t = arith.addf %m, %res : f32
      linalg.yield %t : f32
  } -> tensor<37x24xf32>
  return %y : tensor<37x24xf32>
}
