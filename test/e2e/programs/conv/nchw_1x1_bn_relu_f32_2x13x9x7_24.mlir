func.func @main(%x: tensor<2x13x9x7xf32>, %w: tensor<24x13x1x1xf32>, %scale: tensor<24xf32>, %shift: tensor<24xf32>) -> tensor<2x24x9x7xf32> {
  %zero = arith.constant 0.0 : f32
  %wf = tensor.collapse_shape %w [[0], [1, 2, 3]] : tensor<24x13x1x1xf32> into tensor<24x13xf32>
  %e = tensor.empty() : tensor<2x24x9x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x24x9x7xf32>) -> tensor<2x24x9x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %wf : tensor<2x13x9x7xf32>, tensor<24x13xf32>) outs(%z : tensor<2x24x9x7xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      %q = arith.addf %o, %p : f32
      linalg.yield %q : f32
  } -> tensor<2x24x9x7xf32>
  return %y : tensor<2x24x9x7xf32>
}
