// A matmul whose A is stored [k, m] with a dynamic M: its contiguous dim is the dynamic one, so
// the kernel reads it one element at a time (a vector could run past M), each guarded.
func.func @main(%x: tensor<64x?xf32>, %w: tensor<64x48xf32>) -> tensor<?x48xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c1 : tensor<64x?xf32>
  %e = tensor.empty(%m) : tensor<?x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>,
                                       affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<64x?xf32>, tensor<64x48xf32>) outs(%acc : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %mm : tensor<?x48xf32>
}
