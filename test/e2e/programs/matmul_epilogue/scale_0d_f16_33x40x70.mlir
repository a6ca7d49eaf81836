// f16 operands, f32 accumulation, scaled by a 0-d tensor (a runtime scalar, broadcast over (m, n)),
// f16 out.
func.func @main(%a: tensor<33x70xf16>, %b: tensor<70x40xf16>, %s: tensor<f32>) -> tensor<33x40xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x70xf16>, tensor<70x40xf16>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  %e16 = tensor.empty() : tensor<33x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> ()>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s : tensor<33x40xf32>, tensor<f32>) outs(%e16 : tensor<33x40xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %y = arith.mulf %x, %c : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<33x40xf16>
  return %r : tensor<33x40xf16>
}
