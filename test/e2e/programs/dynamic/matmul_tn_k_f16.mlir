// A reduction over a dynamic count of tokens, X^T dY as a weight gradient computes it: an f16
// matmul into f32 whose K is dynamic and whose operands are both stored [k, m] / [k, n] (M and
// N contiguous: vectors along them; on sm_90a the wgmma scheme's, its copies of K rows past K
// zero-filled).
func.func @main(%x: tensor<?x128xf16>, %dy: tensor<?x64xf16>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>,
                                         affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %dy : tensor<?x128xf16>, tensor<?x64xf16>) outs(%acc : tensor<128x64xf32>) {
  ^bb0(%a: f16, %b: f16, %o: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x64xf32>
  return %mm : tensor<128x64xf32>
}
