// A matmul of a dynamic count of rows (M) by static weights, plus a bias along N: a
// projection of a sequence whose length is read at run time.
#a = affine_map<(m, n) -> (m, n)>
#bias = affine_map<(m, n) -> (n)>
func.func @main(%x: tensor<?x64xf32>, %w: tensor<64x48xf32>, %b: tensor<48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%m) : tensor<?x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x48xf32>) outs(%acc : tensor<?x48xf32>) -> tensor<?x48xf32>
  %y = linalg.generic {indexing_maps = [#a, #bias, #a], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x48xf32>, tensor<48xf32>) outs(%e : tensor<?x48xf32>) {
  ^bb0(%v: f32, %z: f32, %o: f32):
    %s = arith.addf %v, %z : f32
    linalg.yield %s : f32
  } -> tensor<?x48xf32>
  return %y : tensor<?x48xf32>
}
