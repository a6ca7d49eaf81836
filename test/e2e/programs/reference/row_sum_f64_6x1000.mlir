func.func @main(%x: tensor<6x1000xf64>) -> tensor<6xf64> {
  %cst = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<6xf64>
  %f = linalg.fill ins(%cst : f64) outs(%e : tensor<6xf64>) -> tensor<6xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x1000xf64>) outs(%f : tensor<6xf64>) {
  ^bb0(%a: f64, %b: f64):
    %s = arith.addf %a, %b : f64
    linalg.yield %s : f64
  } -> tensor<6xf64>
  return %r : tensor<6xf64>
}
