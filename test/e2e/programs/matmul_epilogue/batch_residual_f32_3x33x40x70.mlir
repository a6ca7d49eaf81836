// batch_matmul (batch 3), ragged M, N and K, + a residual [m, n] shared by the batches,
// scaled: the residual is read through (b, m, n) -> (m, n).
func.func @main(%a: tensor<3x33x70xf32>, %b: tensor<3x70x40xf32>, %res: tensor<33x40xf32>) -> tensor<3x33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<3x33x70xf32>, tensor<3x70x40xf32>) outs(%z : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %res : tensor<3x33x40xf32>, tensor<33x40xf32>) outs(%e : tensor<3x33x40xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %s = arith.mulf %x, %scale : f32
    %y = arith.addf %s, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x33x40xf32>
  return %r : tensor<3x33x40xf32>
}
