func.func @main(%a0: tensor<1009xf32>) -> tensor<1009xf32> {
  %e = tensor.empty() : tensor<1009xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a0 : tensor<1009xf32>) outs(%e : tensor<1009xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %y = arith.negf %x0 : f32
    linalg.yield %y : f32
  } -> tensor<1009xf32>
  return %r : tensor<1009xf32>
}
