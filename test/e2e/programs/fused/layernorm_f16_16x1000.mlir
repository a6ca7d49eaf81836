// LayerNorm over rows of 1000 (f16 in and out, f32 statistics) as torch / ONNX importers write it:
// the row sum, the mean (a row map), the centered sum of squares, rsqrt(var + eps) (a row map),
// and (x - mean) * rstd * gamma + beta.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<16x1000xf16>, %gamma: tensor<1000xf16>, %beta: tensor<1000xf16>) -> tensor<16x1000xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1000.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x1000xf16>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %y = arith.addf %a32, %o : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %y = arith.divf %s, %n : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<16x1000xf16>, tensor<16xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f16, %m: f32, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %d = arith.subf %a32, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %y = arith.addf %d2, %o : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %rstd = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sq : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %v = arith.divf %s, %n : f32
    %ve = arith.addf %v, %eps : f32
    %y = math.rsqrt %ve : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x1000xf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %gamma, %beta : tensor<16x1000xf16>, tensor<16xf32>, tensor<16xf32>, tensor<1000xf16>, tensor<1000xf16>)
      outs(%e2 : tensor<16x1000xf16>) {
  ^bb0(%a: f16, %m: f32, %rs: f32, %g: f16, %b: f16, %o: f16):
    %a32 = arith.extf %a : f16 to f32
    %g32 = arith.extf %g : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %d = arith.subf %a32, %m : f32
    %nm = arith.mulf %d, %rs : f32
    %sc = arith.mulf %nm, %g32 : f32
    %y = arith.addf %sc, %b32 : f32
    %y16 = arith.truncf %y : f32 to f16
    linalg.yield %y16 : f16
  } -> tensor<16x1000xf16>
  return %r : tensor<16x1000xf16>
}
