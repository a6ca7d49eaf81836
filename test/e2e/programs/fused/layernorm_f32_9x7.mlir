// LayerNorm over rows of 7 (f32 in and out, f32 statistics) as torch / ONNX importers write it:
// the row sum, the mean (a row map), the centered sum of squares, rsqrt(var + eps) (a row map),
// and (x - mean) * rstd * gamma + beta.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<9x7xf32>, %gamma: tensor<7xf32>, %beta: tensor<7xf32>) -> tensor<9x7xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 7.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e1 = tensor.empty() : tensor<9xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<9xf32>) -> tensor<9xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x7xf32>) outs(%f : tensor<9xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %mean = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sum : tensor<9xf32>) outs(%e1 : tensor<9xf32>) {
  ^bb0(%s: f32, %o: f32):
    %y = arith.divf %s, %n : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<9x7xf32>, tensor<9xf32>) outs(%f : tensor<9xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %y = arith.addf %d2, %o : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %rstd = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sq : tensor<9xf32>) outs(%e1 : tensor<9xf32>) {
  ^bb0(%s: f32, %o: f32):
    %v = arith.divf %s, %n : f32
    %ve = arith.addf %v, %eps : f32
    %y = math.rsqrt %ve : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %e2 = tensor.empty() : tensor<9x7xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %gamma, %beta : tensor<9x7xf32>, tensor<9xf32>, tensor<9xf32>, tensor<7xf32>, tensor<7xf32>)
      outs(%e2 : tensor<9x7xf32>) {
  ^bb0(%a: f32, %m: f32, %rs: f32, %g: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %nm = arith.mulf %d, %rs : f32
    %sc = arith.mulf %nm, %g : f32
    %y = arith.addf %sc, %b : f32
    linalg.yield %y : f32
  } -> tensor<9x7xf32>
  return %r : tensor<9x7xf32>
}
