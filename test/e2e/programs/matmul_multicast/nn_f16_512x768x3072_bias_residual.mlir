// GPT-2's FFN down: NN f16, + bias + residual, f16 out (64x64 tiles: 8 x 12 of them).
func.func @main(%a: tensor<512x3072xf16>, %b: tensor<3072x768xf16>, %bias: tensor<768xf16>, %res: tensor<512x768xf16>) -> tensor<512x768xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x768xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x768xf32>) -> tensor<512x768xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<512x3072xf16>, tensor<3072x768xf16>) outs(%z : tensor<512x768xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<512x768xf32>
  %e16 = tensor.empty() : tensor<512x768xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias, %res : tensor<512x768xf32>, tensor<768xf16>, tensor<512x768xf16>) outs(%e16 : tensor<512x768xf16>) {
  ^bb0(%x: f32, %c: f16, %q: f16, %o: f16):
    %cf = arith.extf %c : f16 to f32
    %qf = arith.extf %q : f16 to f32
    %y = arith.addf %x, %cf : f32
    %w = arith.addf %y, %qf : f32
    %t = arith.truncf %w : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x768xf16>
  return %r : tensor<512x768xf16>
}
