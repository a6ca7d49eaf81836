// A bias broadcast along dynamic rows and a tanh, in f16: the bias has its own dynamic extent.
#x = affine_map<(d0, d1) -> (d0, d1)>
#c = affine_map<(d0, d1) -> (d1)>
func.func @main(%in: tensor<?x?xf16>, %b: tensor<?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %in, %c0 : tensor<?x?xf16>
  %d1 = tensor.dim %in, %c1 : tensor<?x?xf16>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf16>
  %y = linalg.generic {indexing_maps = [#x, #c, #x], iterator_types = ["parallel", "parallel"]}
      ins(%in, %b : tensor<?x?xf16>, tensor<?xf16>) outs(%e : tensor<?x?xf16>) {
  ^bb0(%a: f16, %z: f16, %o: f16):
    %v = arith.addf %a, %z : f16
    %r = math.tanh %v : f16
    linalg.yield %r : f16
  } -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
