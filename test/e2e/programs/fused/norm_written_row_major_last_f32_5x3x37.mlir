// MobileViT's LayerNorm folded back into its patches, as IREE fuses them: the sum of squares of
// each row (i, j) of 37, then every element normalized and stored at [c, j, i], contiguous along
// the rows' first dim (i), neither the row's (c) nor the rows' last (j).
func.func @main(%x: tensor<5x3x37xf32>, %g: tensor<37xf32>, %b: tensor<37xf32>) -> tensor<37x3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 37.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<5x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                         affine_map<(d0, d1, d2) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<5x3x37xf32>) outs(%f : tensor<5x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    %a = arith.addf %m, %out : f32
    linalg.yield %a : f32
  } -> tensor<5x3xf32>
  %o = tensor.empty() : tensor<37x3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>,
                                        affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %ss, %g, %b : tensor<5x3x37xf32>, tensor<5x3xf32>, tensor<37xf32>, tensor<37xf32>)
      outs(%o : tensor<37x3x5xf32>) {
  ^bb0(%in: f32, %s: f32, %gg: f32, %bb: f32, %out: f32):
    %d = arith.divf %s, %n : f32
    %a = arith.addf %d, %eps : f32
    %q = math.rsqrt %a : f32
    %y = arith.mulf %in, %q : f32
    %z = arith.mulf %y, %gg : f32
    %w = arith.addf %z, %bb : f32
    linalg.yield %w : f32
  } -> tensor<37x3x5xf32>
  return %r : tensor<37x3x5xf32>
}
