// A matmul of static rows by weights of a dynamic count of columns (N, B stored [k, n]: its
// contiguous dim the dynamic one, read one element at a time), plus a bias along N of the same
// dynamic length: N's workgroup count, B's column reads, the bias's reads and the output's
// column stores all bounded by the N read at run time.
#a = affine_map<(m, n) -> (m, n)>
#bias = affine_map<(m, n) -> (n)>
func.func @main(%x: tensor<33x40xf32>, %w: tensor<40x?xf32>, %b: tensor<?xf32>) -> tensor<33x?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %w, %c1 : tensor<40x?xf32>
  %e = tensor.empty(%n) : tensor<33x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<33x?xf32>) -> tensor<33x?xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<33x40xf32>, tensor<40x?xf32>) outs(%acc : tensor<33x?xf32>) -> tensor<33x?xf32>
  %y = linalg.generic {indexing_maps = [#a, #bias, #a], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<33x?xf32>, tensor<?xf32>) outs(%e : tensor<33x?xf32>) {
  ^bb0(%v: f32, %z: f32, %o: f32):
    %s = arith.addf %v, %z : f32
    linalg.yield %s : f32
  } -> tensor<33x?xf32>
  return %y : tensor<33x?xf32>
}
