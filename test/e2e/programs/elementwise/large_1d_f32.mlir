func.func @main(%a0: tensor<300007xf32>, %a1: tensor<300007xf32>) -> tensor<300007xf32> {
  %e = tensor.empty() : tensor<300007xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a0, %a1 : tensor<300007xf32>, tensor<300007xf32>) outs(%e : tensor<300007xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.maximumf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<300007xf32>
  return %r : tensor<300007xf32>
}
