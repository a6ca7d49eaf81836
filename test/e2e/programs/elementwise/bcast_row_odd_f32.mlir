func.func @main(%a0: tensor<1000x37xf32>, %a1: tensor<37xf32>) -> tensor<1000x37xf32> {
  %e = tensor.empty() : tensor<1000x37xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<1000x37xf32>, tensor<37xf32>) outs(%e : tensor<1000x37xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %s = arith.addf %x0, %x1 : f32
    %y = math.exp %s : f32
    linalg.yield %y : f32
  } -> tensor<1000x37xf32>
  return %r : tensor<1000x37xf32>
}
