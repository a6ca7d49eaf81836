// f16 max accumulated in f16 (16-bit values cross lanes as i32).
func.func @main(%x0: tensor<32x300xf16>) -> tensor<32xf16> {
  %cst = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<32xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<32xf16>) -> tensor<32xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<32x300xf16>) outs(%f : tensor<32xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %s = arith.maximumf %in0, %out : f16
    linalg.yield %s : f16
  } -> tensor<32xf16>
  return %r : tensor<32xf16>
}
