// RMSNorm over rows of 4099 (f16 in and out, f32 statistics): the sum of squares, rsqrt(mean + eps)
// (a row map), x * rrms * gamma.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<7x4099xf16>, %gamma: tensor<4099xf16>) -> tensor<7x4099xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4099.0 : f32
  %eps = arith.constant 1.0e-06 : f32
  %e1 = tensor.empty() : tensor<7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<7xf32>) -> tensor<7xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<7x4099xf16>) outs(%f : tensor<7xf32>) {
  ^bb0(%a: f16, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %d2 = arith.mulf %a32, %a32 : f32
    %y = arith.addf %d2, %o : f32
    linalg.yield %y : f32
  } -> tensor<7xf32>
  %rr = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sq : tensor<7xf32>) outs(%e1 : tensor<7xf32>) {
  ^bb0(%s: f32, %o: f32):
    %v = arith.divf %s, %n : f32
    %ve = arith.addf %v, %eps : f32
    %y = math.rsqrt %ve : f32
    linalg.yield %y : f32
  } -> tensor<7xf32>
  %e2 = tensor.empty() : tensor<7x4099xf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %rr, %gamma : tensor<7x4099xf16>, tensor<7xf32>, tensor<4099xf16>) outs(%e2 : tensor<7x4099xf16>) {
  ^bb0(%a: f16, %rs: f32, %g: f16, %o: f16):
    %a32 = arith.extf %a : f16 to f32
    %g32 = arith.extf %g : f16 to f32
    %nm = arith.mulf %a32, %rs : f32
    %y = arith.mulf %nm, %g32 : f32
    %y16 = arith.truncf %y : f32 to f16
    linalg.yield %y16 : f16
  } -> tensor<7x4099xf16>
  return %r : tensor<7x4099xf16>
}
