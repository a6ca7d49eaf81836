// 3-D reversal (2, 1, 0): the middle dim is neither fast dim.
func.func @main(%a0: tensor<9x10x12xf32>, %a1: tensor<12x10x9xf32>) -> tensor<12x10x9xf32> {
  %e = tensor.empty() : tensor<12x10x9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<9x10x12xf32>, tensor<12x10x9xf32>) outs(%e : tensor<12x10x9xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.mulf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<12x10x9xf32>
  return %r : tensor<12x10x9xf32>
}
