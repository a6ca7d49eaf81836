// RMSNorm over rows of 1000 (f32 in and out, f32 statistics): the sum of squares, rsqrt(mean + eps)
// (a row map), x * rrms * gamma.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<16x1000xf32>, %gamma: tensor<1000xf32>) -> tensor<16x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1000.0 : f32
  %eps = arith.constant 1.0e-06 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x1000xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d2 = arith.mulf %a, %a : f32
    %y = arith.addf %d2, %o : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %rr = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sq : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %v = arith.divf %s, %n : f32
    %ve = arith.addf %v, %eps : f32
    %y = math.rsqrt %ve : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x1000xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rr, %gamma : tensor<16x1000xf32>, tensor<16xf32>, tensor<1000xf32>) outs(%e2 : tensor<16x1000xf32>) {
  ^bb0(%a: f32, %rs: f32, %g: f32, %o: f32):
    %nm = arith.mulf %a, %rs : f32
    %y = arith.mulf %nm, %g : f32
    linalg.yield %y : f32
  } -> tensor<16x1000xf32>
  return %r : tensor<16x1000xf32>
}
