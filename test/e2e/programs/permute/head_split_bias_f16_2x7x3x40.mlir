// Attention's head split with the bias IREE fuses into it: [B,S,H*D] + bias -> [B,H,S,D] (the
// output map permuted, the fastest dim D kept); f16, awkward sizes.
func.func @main(%x: tensor<2x7x3x40xf16>, %b: tensor<3x40xf16>) -> tensor<2x3x7x40xf16> {
  %e = tensor.empty() : tensor<2x3x7x40xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<2x7x3x40xf16>, tensor<3x40xf16>) outs(%e : tensor<2x3x7x40xf16>) {
  ^bb0(%in: f16, %bias: f16, %out: f16):
    %s = arith.addf %in, %bias : f16
    linalg.yield %s : f16
  } -> tensor<2x3x7x40xf16>
  return %y : tensor<2x3x7x40xf16>
}
