// Max over the middle dim of a small 3-D tensor.
func.func @main(%x0: tensor<6x50x10xf32>) -> tensor<6x10xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<6x10xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6x10xf32>) -> tensor<6x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x0 : tensor<6x50x10xf32>) outs(%f : tensor<6x10xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.maximumf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<6x10xf32>
  return %r : tensor<6x10xf32>
}
