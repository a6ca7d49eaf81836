// A product whose fused consumer stores it transposed (FocalNet's modulator, SqueezeBERT's
// 1x1 convolutions as torch-mlir writes them): y[n, m] = (a @ w)[m, n] + bias[n]. n is not
// the stored tensor's fastest dim, so each lane stores its own element, 37 apart.
func.func @main(%a: tensor<37x20xf32>, %w: tensor<20x24xf32>, %bias: tensor<24xf32>) -> tensor<24x37xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<37x24xf32>) -> tensor<37x24xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<37x20xf32>, tensor<20x24xf32>) outs(%f : tensor<37x24xf32>) -> tensor<37x24xf32>
  %et = tensor.empty() : tensor<24x37xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j, i)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<37x24xf32>, tensor<24xf32>) outs(%et : tensor<24x37xf32>) {
  ^bb0(%p: f32, %b: f32, %o: f32):
    %t = arith.addf %p, %b : f32
    linalg.yield %t : f32
  } -> tensor<24x37xf32>
  return %y : tensor<24x37xf32>
}
