// Centering over the two trailing dims (IREE collapses them: 6 rows of 200).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#r2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<2x3x5x40xf32>) -> tensor<2x3x5x40xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 200.0 : f32
  %e1 = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x3x5x40xf32>) outs(%f : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3x5x40xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<2x3x5x40xf32>, tensor<2x3xf32>) outs(%e2 : tensor<2x3x5x40xf32>) {
  ^bb0(%a: f32, %ss: f32, %o: f32):
    %m = arith.divf %ss, %n : f32
    %y = arith.subf %a, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x3x5x40xf32>
  return %r : tensor<2x3x5x40xf32>
}
