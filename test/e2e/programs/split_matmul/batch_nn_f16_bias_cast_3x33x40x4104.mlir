// batch_matmul (batch 3), ragged M and N, 4104 = 8 x 513, + a bias over n shared by the
// batches + cast to f16: the partials carry two batch dims, the chunk and the batch.
func.func @main(%a: tensor<3x33x4104xf16>, %b: tensor<3x4104x40xf16>, %bias: tensor<40xf32>) -> tensor<3x33x40xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<3x33x4104xf16>, tensor<3x4104x40xf16>) outs(%z : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %e16 = tensor.empty() : tensor<3x33x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<3x33x40xf32>, tensor<40xf32>) outs(%e16 : tensor<3x33x40xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %y = arith.addf %x, %c : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<3x33x40xf16>
  return %r : tensor<3x33x40xf16>
}
