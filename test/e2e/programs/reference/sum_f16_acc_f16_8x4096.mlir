// Random f16 rows summed with an f16 accumulator (no extf): the program's own precision.
func.func @main(%x: tensor<8x4096xf16>) -> tensor<8xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x4096xf16>) outs(%f : tensor<8xf16>) {
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  return %r : tensor<8xf16>
}
