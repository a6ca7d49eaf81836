// x / sum(x) over a whole 1-D tensor: no parallel dims, one row.
func.func @main(%x: tensor<3001xf32>) -> tensor<3001xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<3001xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  %e = tensor.empty() : tensor<3001xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<3001xf32>, tensor<f32>) outs(%e : tensor<3001xf32>) {
  ^bb0(%a: f32, %ss: f32, %o: f32):
    %y = arith.divf %a, %ss : f32
    linalg.yield %y : f32
  } -> tensor<3001xf32>
  return %r : tensor<3001xf32>
}
