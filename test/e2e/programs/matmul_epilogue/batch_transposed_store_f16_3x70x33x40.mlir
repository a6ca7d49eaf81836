// A batch of f16 products stored with n first and the batch between (SqueezeBERT's grouped
// 1x1 convolutions: (b, m, n) -> (n, b, m)), GELU-free: scaled, rounded to f16. The tiles do
// not divide M (70) or N (33): the lane-by-lane stores are guarded as the vectors are.
func.func @main(%a: tensor<3x70x40xf16>, %w: tensor<3x40x33xf16>) -> tensor<33x3x70xf16> {
  %z = arith.constant 0.0 : f32
  %s = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<3x70x33xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x70x33xf32>) -> tensor<3x70x33xf32>
  %mm = linalg.batch_matmul ins(%a, %w : tensor<3x70x40xf16>, tensor<3x40x33xf16>) outs(%f : tensor<3x70x33xf32>) -> tensor<3x70x33xf32>
  %et = tensor.empty() : tensor<33x3x70xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j, b, i)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<3x70x33xf32>) outs(%et : tensor<33x3x70xf16>) {
  ^bb0(%p: f32, %o: f16):
    %t = arith.mulf %p, %s : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<33x3x70xf16>
  return %y : tensor<33x3x70xf16>
}
