// Attention's P x V at BERT-base's sizes (12 heads, sequence 512, head dim 64), f16 in, f32
// accumulation, f16 out, as IREE forms it: V (K x N per head) is not K-contiguous.
func.func @main(%p: tensor<12x512x512xf16>, %v: tensor<12x512x64xf16>) -> tensor<12x512x64xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x512x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<12x512x64xf32>) -> tensor<12x512x64xf32>
  %mm = linalg.batch_matmul ins(%p, %v : tensor<12x512x512xf16>, tensor<12x512x64xf16>) outs(%z : tensor<12x512x64xf32>) -> tensor<12x512x64xf32>
  %t = tensor.empty() : tensor<12x512x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<12x512x64xf32>) outs(%t : tensor<12x512x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<12x512x64xf16>
  return %r : tensor<12x512x64xf16>
}
