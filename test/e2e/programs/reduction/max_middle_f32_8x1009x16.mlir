// Max over a prime middle dim (1009): 64 threads on the reduction, 15 or 16 rows each, loaded
// 4 at a time; the leftovers (3 for the threads with 15) are clamped and dropped by select.
func.func @main(%x0: tensor<8x1009x16xf32>) -> tensor<8x16xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x0 : tensor<8x1009x16xf32>) outs(%f : tensor<8x16xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.maximumf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
