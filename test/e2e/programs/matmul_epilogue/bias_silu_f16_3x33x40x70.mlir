// batch 3, f16 operands, f32 accumulation; bias (over n) + SiLU + truncf to f16 in one generic,
// as IREE forms a linear layer's activation.
func.func @main(%a: tensor<3x33x70xf16>, %b: tensor<3x70x40xf16>, %bias: tensor<40xf32>) -> tensor<3x33x40xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<3x33x70xf16>, tensor<3x70x40xf16>) outs(%z : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %e16 = tensor.empty() : tensor<3x33x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<3x33x40xf32>, tensor<40xf32>) outs(%e16 : tensor<3x33x40xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %one = arith.constant 1.0 : f32
    %y = arith.addf %x, %c : f32
    %ny = arith.negf %y : f32
    %ey = math.exp %ny : f32
    %d = arith.addf %ey, %one : f32
    %s = arith.divf %y, %d : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<3x33x40xf16>
  return %r : tensor<3x33x40xf16>
}
