// NN f16 + bias, rounded to f16 (a projection as models write it), with M and K tails (300
// rows, K 200) and N in whole tiles (512): under `tiles=128x256x8x16` on sm_90a the wgmma
// scheme copies its operands by TMA, whose tensor maps sit in the first row of each f16
// output tile (512 bytes) until the epilogue overwrites them.
func.func @main(%a: tensor<300x200xf16>, %b: tensor<200x512xf16>, %bias: tensor<512xf16>) -> tensor<300x512xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300x512xf32>) -> tensor<300x512xf32>
  %c = linalg.matmul ins(%a, %b : tensor<300x200xf16>, tensor<200x512xf16>) outs(%f : tensor<300x512xf32>) -> tensor<300x512xf32>
  %e16 = tensor.empty() : tensor<300x512xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<300x512xf32>, tensor<512xf16>) outs(%e16 : tensor<300x512xf16>) {
  ^bb0(%x: f32, %bb: f16, %o: f16):
    %bf = arith.extf %bb : f16 to f32
    %s = arith.addf %x, %bf : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<300x512xf16>
  return %y : tensor<300x512xf16>
}
