// A product whose fused consumer adds a slice of another product's wider result (MobileBERT's
// bottleneck adds a slice of a tensor IREE keeps wider; FocalNet's modulator reads one): the
// first product's 37x61 result is stored whole, the second's epilogue reads its columns 13 to
// 36, rows 61 floats apart at an odd start, through the slice's view.
func.func @main(%x: tensor<37x20xf32>, %w1: tensor<20x61xf32>, %a: tensor<37x20xf32>, %w2: tensor<20x24xf32>,
                %bias: tensor<24xf32>) -> tensor<37x24xf32> {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<37x61xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<37x61xf32>) -> tensor<37x61xf32>
  %wide = linalg.matmul ins(%x, %w1 : tensor<37x20xf32>, tensor<20x61xf32>) outs(%f1 : tensor<37x61xf32>) -> tensor<37x61xf32>
  %s = tensor.extract_slice %wide[0, 13] [37, 24] [1, 1] : tensor<37x61xf32> to tensor<37x24xf32>
  %e2 = tensor.empty() : tensor<37x24xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<37x24xf32>) -> tensor<37x24xf32>
  %mm = linalg.matmul ins(%a, %w2 : tensor<37x20xf32>, tensor<20x24xf32>) outs(%f2 : tensor<37x24xf32>) -> tensor<37x24xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias, %s : tensor<37x24xf32>, tensor<24xf32>, tensor<37x24xf32>) outs(%e2 : tensor<37x24xf32>) {
  ^bb0(%p: f32, %b: f32, %r: f32, %o: f32):
    %t = arith.addf %p, %b : f32
    %u = arith.addf %t, %r : f32
    linalg.yield %u : f32
  } -> tensor<37x24xf32>
  return %y : tensor<37x24xf32>
}
