// f16 with both contiguous extents odd (C = 1009, HW = 343): no vector divides a row.
func.func @main(%a0: tensor<3x49x7x1009xf16>, %a1: tensor<3x1009x49x7xf16>) -> tensor<3x1009x49x7xf16> {
  %e = tensor.empty() : tensor<3x1009x49x7xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<3x49x7x1009xf16>, tensor<3x1009x49x7xf16>) outs(%e : tensor<3x1009x49x7xf16>) {
  ^bb0(%in0: f16, %in1: f16, %out: f16):
    %y = arith.addf %in0, %in1 : f16
    linalg.yield %y : f16
  } -> tensor<3x1009x49x7xf16>
  return %r : tensor<3x1009x49x7xf16>
}
