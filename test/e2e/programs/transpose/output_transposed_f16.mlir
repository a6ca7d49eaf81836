// f16: two NHWC inputs -> NCHW through LDS on the store side.
func.func @main(%a0: tensor<2x9x9x16xf16>, %a1: tensor<2x9x9x16xf16>) -> tensor<2x16x9x9xf16> {
  %e = tensor.empty() : tensor<2x16x9x9xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<2x9x9x16xf16>, tensor<2x9x9x16xf16>) outs(%e : tensor<2x16x9x9xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %y = arith.subf %in0, %in1 : f16
    linalg.yield %y : f16
  } -> tensor<2x16x9x9xf16>
  return %r : tensor<2x16x9x9xf16>
}
