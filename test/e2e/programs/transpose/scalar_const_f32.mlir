// A^T * 2 + 1 with constants in the body, 3-D.
func.func @main(%a0: tensor<5x24x40xf32>) -> tensor<5x40x24xf32> {
  %e = tensor.empty() : tensor<5x40x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a0 : tensor<5x24x40xf32>) outs(%e : tensor<5x40x24xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %c2 = arith.constant 2.0 : f32
    %c1 = arith.constant 1.0 : f32
    %m = arith.mulf %in0, %c2 : f32
    %y = arith.addf %m, %c1 : f32
    linalg.yield %y : f32
  } -> tensor<5x40x24xf32>
  return %r : tensor<5x40x24xf32>
}
