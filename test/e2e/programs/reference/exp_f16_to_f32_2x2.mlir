// exp in f16, then widened: the f32 output carries f16's rounding, so its tolerances are f16's (found by the fuzzer's long profile).
func.func @main(%x0: tensor<2x2xf16>) -> tensor<2x2xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x0 : tensor<2x2xf16>) outs(%f : tensor<2x2xf32>) {
  ^bb0(%a0: f16, %out: f32):
    %v1 = math.exp %a0 : f16
    %v2 = arith.extf %v1 : f16 to f32
    %v3 = arith.addf %v2, %out : f32
    linalg.yield %v3 : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
