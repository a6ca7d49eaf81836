// minimumf rows.
func.func @main(%x0: tensor<100x333xf32>) -> tensor<100xf32> {
  %cst = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<100xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<100x333xf32>) outs(%f : tensor<100xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.minimumf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<100xf32>
  return %r : tensor<100xf32>
}
