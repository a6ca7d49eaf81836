// matmul + ReLU (`arith.maximumf` with 0), all f32, ragged M, N and K.
func.func @main(%a: tensor<33x70xf32>, %b: tensor<70x40xf32>) -> tensor<33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x70xf32>, tensor<70x40xf32>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<33x40xf32>) outs(%e : tensor<33x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %c0 : f32
    linalg.yield %y : f32
  } -> tensor<33x40xf32>
  return %r : tensor<33x40xf32>
}
