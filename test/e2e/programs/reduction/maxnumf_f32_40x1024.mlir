// maxnumf rows.
func.func @main(%x0: tensor<40x1024xf32>) -> tensor<40xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<40xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<40x1024xf32>) outs(%f : tensor<40xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.maxnumf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<40xf32>
  return %r : tensor<40xf32>
}
