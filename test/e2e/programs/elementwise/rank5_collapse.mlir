func.func @main(%a0: tensor<2x3x5x7x11xf32>, %a1: tensor<2x3x5x7x11xf32>) -> tensor<2x3x5x7x11xf32> {
  %e = tensor.empty() : tensor<2x3x5x7x11xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<2x3x5x7x11xf32>, tensor<2x3x5x7x11xf32>) outs(%e : tensor<2x3x5x7x11xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o: f32):
    %y = arith.subf %x0, %x1 : f32
    linalg.yield %y : f32
  } -> tensor<2x3x5x7x11xf32>
  return %r : tensor<2x3x5x7x11xf32>
}
