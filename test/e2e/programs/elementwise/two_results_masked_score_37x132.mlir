// An elementwise generic of two results, as a masked attention score and its boolean map are
// formed together: the score where it passes a per-column threshold, else -1e4, and the i1
// map of where it did (IREE stores it as i8); 37 rows (prime) of 132.
func.func @main(%s: tensor<37x132xf32>, %t: tensor<132xf32>) -> (tensor<37x132xf32>, tensor<37x132xi1>) {
  %low = arith.constant -1.0e4 : f32
  %e = tensor.empty() : tensor<37x132xf32>
  %eb = tensor.empty() : tensor<37x132xi1>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %t : tensor<37x132xf32>, tensor<132xf32>) outs(%e, %eb : tensor<37x132xf32>, tensor<37x132xi1>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %ob: i1):
    %keep = arith.cmpf ogt, %a, %b : f32
    %m = arith.select %keep, %a, %low : f32
    linalg.yield %m, %keep : f32, i1
  } -> (tensor<37x132xf32>, tensor<37x132xi1>)
  return %r#0, %r#1 : tensor<37x132xf32>, tensor<37x132xi1>
}
