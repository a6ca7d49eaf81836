// Products over a short dim (bounded).
func.func @main(%x0: tensor<256x8xf32>) -> tensor<256xf32> {
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<256x8xf32>) outs(%f : tensor<256xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.mulf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
