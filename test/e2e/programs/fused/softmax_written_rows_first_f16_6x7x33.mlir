// A softmax over rows of 33 written [j, c, i]: contiguous along the rows' first dim (i), the
// stored tensor's middle dim the row's.
func.func @main(%x: tensor<6x7x33xf16>) -> tensor<7x33x6xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<6x7xf16>
  %fm = linalg.fill ins(%ninf : f16) outs(%e : tensor<6x7xf16>) -> tensor<6x7xf16>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                         affine_map<(d0, d1, d2) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<6x7x33xf16>) outs(%fm : tensor<6x7xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maximumf %in, %out : f16
    linalg.yield %m : f16
  } -> tensor<6x7xf16>
  %fs = linalg.fill ins(%zero : f16) outs(%e : tensor<6x7xf16>) -> tensor<6x7xf16>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>,
                                         affine_map<(d0, d1, d2) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %mx : tensor<6x7x33xf16>, tensor<6x7xf16>) outs(%fs : tensor<6x7xf16>) {
  ^bb0(%in: f16, %m: f16, %out: f16):
    %d = arith.subf %in, %m : f16
    %x2 = math.exp %d : f16
    %a = arith.addf %x2, %out : f16
    linalg.yield %a : f16
  } -> tensor<6x7xf16>
  %o = tensor.empty() : tensor<7x33x6xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d0)>,
                                        affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mx, %sm : tensor<6x7x33xf16>, tensor<6x7xf16>, tensor<6x7xf16>) outs(%o : tensor<7x33x6xf16>) {
  ^bb0(%in: f16, %m: f16, %s: f16, %out: f16):
    %d = arith.subf %in, %m : f16
    %x2 = math.exp %d : f16
    %y = arith.divf %x2, %s : f16
    linalg.yield %y : f16
  } -> tensor<7x33x6xf16>
  return %r : tensor<7x33x6xf16>
}
