// NN f32: init from a non-zero fill constant.
func.func @main(%a: tensor<40x30xf32>, %b: tensor<30x50xf32>) -> tensor<40x50xf32> {
  %cst = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<40x50xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<40x50xf32>) -> tensor<40x50xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<40x30xf32>, tensor<30x50xf32>) outs(%f : tensor<40x50xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<40x50xf32>
  return %r : tensor<40x50xf32>
}
