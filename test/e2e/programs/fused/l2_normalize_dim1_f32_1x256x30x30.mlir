// Rows reduced over an outer dim (fused strided rows): F.normalize(x, dim=1) of x [1, 256, 30,
// 30]: 900 rows of 256 strided by 900.
func.func @main(%x: tensor<1x256x30x30xf32>) -> tensor<1x256x30x30xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-12 : f32
  %er = tensor.empty() : tensor<1x30x30xf32>
  %eo = tensor.empty() : tensor<1x256x30x30xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<1x30x30xf32>) -> tensor<1x30x30xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%x : tensor<1x256x30x30xf32>) outs(%fz : tensor<1x30x30xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    %y = arith.addf %sq, %o : f32
    linalg.yield %y : f32
  } -> tensor<1x30x30xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x256x30x30xf32>, tensor<1x30x30xf32>) outs(%eo : tensor<1x256x30x30xf32>) {
  ^bb0(%a: f32, %ss: f32, %o: f32):
    %nrm = math.sqrt %ss : f32
    %c = arith.maximumf %nrm, %eps : f32
    %y = arith.divf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x256x30x30xf32>
  return %r : tensor<1x256x30x30xf32>
}
