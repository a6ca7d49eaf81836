// i8 transpose + add (integers wrap), ragged 130x200.
func.func @main(%a0: tensor<130x200xi8>, %a1: tensor<200x130xi8>) -> tensor<200x130xi8> {
  %e = tensor.empty() : tensor<200x130xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<130x200xi8>, tensor<200x130xi8>) outs(%e : tensor<200x130xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %y = arith.addi %in0, %in1 : i8
    linalg.yield %y : i8
  } -> tensor<200x130xi8>
  return %r : tensor<200x130xi8>
}
