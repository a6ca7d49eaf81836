func.func @main(%a0: tensor<3x1000xi8>, %a1: tensor<1000xi8>) -> tensor<3x1000xi8> {
  %e = tensor.empty() : tensor<3x1000xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<3x1000xi8>, tensor<1000xi8>) outs(%e : tensor<3x1000xi8>) {
  ^bb0(%x0: i8, %x1: i8, %o: i8):
    %y = arith.addi %x0, %x1 : i8
    linalg.yield %y : i8
  } -> tensor<3x1000xi8>
  return %r : tensor<3x1000xi8>
}
