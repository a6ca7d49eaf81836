// f64 end to end: IREE demotes f64 to f32 unless told not to (every ldsopt target runs f64).
func.func @main(%a: tensor<37x65xf64>, %b: tensor<37x65xf64>) -> tensor<37x65xf64> {
  %e = tensor.empty() : tensor<37x65xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x65xf64>, tensor<37x65xf64>) outs(%e : tensor<37x65xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %m, %x : f64
    linalg.yield %s : f64
  } -> tensor<37x65xf64>
  return %r : tensor<37x65xf64>
}
