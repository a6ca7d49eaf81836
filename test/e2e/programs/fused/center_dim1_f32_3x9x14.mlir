// Rows reduced over an outer dim (fused strided rows): The mean over dim 1 of x [3, 9, 14] and x
// minus it: a row output and a full one, 42 rows of 9 strided by 14.
func.func @main(%x: tensor<3x9x14xf32>) -> (tensor<3x14xf32>, tensor<3x9x14xf32>) {
  %zero = arith.constant 0.0 : f32
  %nr = arith.constant 9.0 : f32
  %er = tensor.empty() : tensor<3x14xf32>
  %eo = tensor.empty() : tensor<3x9x14xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<3x14xf32>) -> tensor<3x14xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<3x9x14xf32>) outs(%fz : tensor<3x14xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<3x14xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<3x14xf32>) outs(%er : tensor<3x14xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.divf %a, %nr : f32
    linalg.yield %y : f32
  } -> tensor<3x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<3x9x14xf32>, tensor<3x14xf32>) outs(%eo : tensor<3x9x14xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %y = arith.subf %a, %mm : f32
    linalg.yield %y : f32
  } -> tensor<3x9x14xf32>
  return %mean, %r : tensor<3x14xf32>, tensor<3x9x14xf32>
}
