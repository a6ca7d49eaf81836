// IREE's large_reduction regression test in f16: 2x4096 halves of 0.001 (0.0010004 in f16)
// summed with an f16 accumulator; IREE's test expects 4.096. A sequential f16 sum stalls at
// 4.0, a tree sum lands at 4.098: the f64 reference (4.0977) tells which is right.
func.func @main() -> tensor<2xf16> {
  %in = util.unfoldable_constant dense<0.001> : tensor<2x4096xf16>
  %cst = arith.constant 0.0 : f16
  %init = tensor.empty() : tensor<2xf16>
  %fill = linalg.fill ins(%cst : f16) outs(%init : tensor<2xf16>) -> tensor<2xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]} ins(%in : tensor<2x4096xf16>) outs(%fill : tensor<2xf16>) {
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<2xf16>
  return %r : tensor<2xf16>
}
