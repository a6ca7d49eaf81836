// A consumer with two results, each stored (LeViT's BatchNorm after a product, wav2vec2's, as
// torch-mlir writes them): y = (a @ w - mean[n]) * scale[n] + shift[n] is stored as it is, and
// y + x (a residual) is stored transposed, (m, n) -> (n, m), each lane's element alone.
func.func @main(%a: tensor<37x20xf32>, %w: tensor<20x24xf32>, %mean: tensor<24xf32>, %scale: tensor<24xf32>,
                %shift: tensor<24xf32>, %x: tensor<37x24xf32>) -> (tensor<37x24xf32>, tensor<24x37xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<37x24xf32>) -> tensor<37x24xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<37x20xf32>, tensor<20x24xf32>) outs(%f : tensor<37x24xf32>) -> tensor<37x24xf32>
  %et = tensor.empty() : tensor<24x37xf32>
  %y:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>,
                                          affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (j, i)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %mean, %scale, %shift, %x : tensor<37x24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<37x24xf32>)
      outs(%e, %et : tensor<37x24xf32>, tensor<24x37xf32>) {
  ^bb0(%p: f32, %mu: f32, %s: f32, %b: f32, %r: f32, %o: f32, %o2: f32):
    %c = arith.subf %p, %mu : f32
    %t = arith.mulf %c, %s : f32
    %u = arith.addf %t, %b : f32
    %v = arith.addf %u, %r : f32
    linalg.yield %u, %v : f32, f32
  } -> (tensor<37x24xf32>, tensor<24x37xf32>)
  return %y#0, %y#1 : tensor<37x24xf32>, tensor<24x37xf32>
}
