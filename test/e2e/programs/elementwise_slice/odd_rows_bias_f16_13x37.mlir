// Every second row of a [13, 37] f16 tensor from row 1 (`x[1::2]`, 6 rows) plus a per-column
// bias: the step is along the rows, each row still contiguous (37 halves: scalar vectors, as
// the row's length allows).
func.func @main(%x: tensor<13x37xf16>, %bias: tensor<37xf16>) -> tensor<6x37xf16> {
  %s = tensor.extract_slice %x[1, 0] [6, 37] [2, 1] : tensor<13x37xf16> to tensor<6x37xf16>
  %e = tensor.empty() : tensor<6x37xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s, %bias : tensor<6x37xf16>, tensor<37xf16>) outs(%e : tensor<6x37xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %y = arith.addf %a, %b : f16
    linalg.yield %y : f16
  } -> tensor<6x37xf16>
  return %r : tensor<6x37xf16>
}
