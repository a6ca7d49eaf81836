// The output starts from a loaded tensor, not a fill.
func.func @main(%x0: tensor<24x640xf32>, %init: tensor<24xf32>) -> tensor<24xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<24x640xf32>) outs(%init : tensor<24xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.addf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  return %r : tensor<24xf32>
}
