// NN f16 + an f16 residual, rounded to f16 (an FFN down's output as models write it), in the
// 64-column f16 output tiles of sm_90a's wgmma plan: M = 130 leaves a last row of tiles two
// rows high, and K = 520 ends in a partial K step.
func.func @main(%a: tensor<130x520xf16>, %b: tensor<520x768xf16>, %r: tensor<130x768xf16>) -> tensor<130x768xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<130x768xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<130x768xf32>) -> tensor<130x768xf32>
  %c = linalg.matmul ins(%a, %b : tensor<130x520xf16>, tensor<520x768xf16>) outs(%f : tensor<130x768xf32>) -> tensor<130x768xf32>
  %e16 = tensor.empty() : tensor<130x768xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : tensor<130x768xf32>, tensor<130x768xf16>) outs(%e16 : tensor<130x768xf16>) {
  ^bb0(%x: f32, %res: f16, %o: f16):
    %rf = arith.extf %res : f16 to f32
    %s = arith.addf %x, %rf : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<130x768xf16>
  return %y : tensor<130x768xf16>
}
