// bf16 2-D transpose of a 48x80 matrix plus a row-major addend.
func.func @main(%a0: tensor<48x80xbf16>, %a1: tensor<80x48xbf16>) -> tensor<80x48xbf16> {
  %e = tensor.empty() : tensor<80x48xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<48x80xbf16>, tensor<80x48xbf16>) outs(%e : tensor<80x48xbf16>) {
  ^bb0(%in0: bf16, %in1: bf16, %out: bf16):
    %y = arith.addf %in0, %in1 : bf16
    linalg.yield %y : bf16
  } -> tensor<80x48xbf16>
  return %r : tensor<80x48xbf16>
}
