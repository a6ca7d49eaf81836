// Rows reduced over an outer dim (fused strided rows): ConvNeXt's LayerNorm in channels-first
// form: over dim 1 of x [2, 24, 7, 9], gamma and beta per channel; 126 rows of 24 strided by 63.
func.func @main(%x: tensor<2x24x7x9xf32>, %g: tensor<24xf32>, %b: tensor<24xf32>) -> tensor<2x24x7x9xf32> {
  %zero = arith.constant 0.0 : f32
  %nc = arith.constant 24.0 : f32
  %eps = arith.constant 1.0e-06 : f32
  %er = tensor.empty() : tensor<2x7x9xf32>
  %eo = tensor.empty() : tensor<2x24x7x9xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x7x9xf32>) -> tensor<2x7x9xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%x : tensor<2x24x7x9xf32>) outs(%fz : tensor<2x7x9xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x7x9xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%x, %s : tensor<2x24x7x9xf32>, tensor<2x7x9xf32>) outs(%fz : tensor<2x7x9xf32>) {
  ^bb0(%a: f32, %ss: f32, %o: f32):
    %u = arith.divf %ss, %nc : f32
    %c = arith.subf %a, %u : f32
    %sq = arith.mulf %c, %c : f32
    %y = arith.addf %sq, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x7x9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s, %v, %g, %b : tensor<2x24x7x9xf32>, tensor<2x7x9xf32>, tensor<2x7x9xf32>, tensor<24xf32>, tensor<24xf32>) outs(%eo : tensor<2x24x7x9xf32>) {
  ^bb0(%a: f32, %ss: f32, %vv: f32, %gg: f32, %bb: f32, %o: f32):
    %u = arith.divf %ss, %nc : f32
    %c = arith.subf %a, %u : f32
    %var = arith.divf %vv, %nc : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %nrm = arith.mulf %c, %rs : f32
    %sc = arith.mulf %nrm, %gg : f32
    %y = arith.addf %sc, %bb : f32
    linalg.yield %y : f32
  } -> tensor<2x24x7x9xf32>
  return %r : tensor<2x24x7x9xf32>
}
