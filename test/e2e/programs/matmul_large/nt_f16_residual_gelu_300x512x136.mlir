// NT f16 with a residual add and GELU by tanh (an FFN's epilogue), M and K tails (300 rows, K
// 136), N in whole tiles (512): under `tiles=128x256x8x16` on sm_90a the wgmma scheme copies
// its operands by TMA while the epilogue reads the residual and writes the f32 output over the
// tensor maps of its first row.
func.func @main(%a: tensor<300x136xf16>, %b: tensor<512x136xf16>, %r: tensor<300x512xf32>) -> tensor<300x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300x512xf32>) -> tensor<300x512xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<300x136xf16>, tensor<512x136xf16>) outs(%f : tensor<300x512xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<300x512xf32>
  %e2 = tensor.empty() : tensor<300x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : tensor<300x512xf32>, tensor<300x512xf32>) outs(%e2 : tensor<300x512xf32>) {
  ^bb0(%x: f32, %res: f32, %o: f32):
    %s = arith.addf %x, %res : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.7978845608 : f32
    %k1 = arith.constant 0.044715 : f32
    %s3 = arith.mulf %s, %s : f32
    %s3b = arith.mulf %s3, %s : f32
    %in = arith.mulf %k1, %s3b : f32
    %in2 = arith.addf %s, %in : f32
    %in3 = arith.mulf %k0, %in2 : f32
    %t = math.tanh %in3 : f32
    %t1 = arith.addf %one, %t : f32
    %hs = arith.mulf %half, %s : f32
    %g = arith.mulf %hs, %t1 : f32
    linalg.yield %g : f32
  } -> tensor<300x512xf32>
  return %y : tensor<300x512xf32>
}
