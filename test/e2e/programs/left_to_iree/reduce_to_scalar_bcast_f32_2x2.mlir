// Found by the fuzzer (test/fuzz, session 31): every loop reduced into a 0-d output, a 2x2
// tensor plus a row vector broadcast along it. No ldsopt pass takes it; ldsopt-window-reduce
// failed on it with an IndexError (no output loop) instead of leaving it to IREE.
func.func @main(%x0: tensor<2x2xf32>, %x1: tensor<2xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x0, %x1 : tensor<2x2xf32>, tensor<2xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %v1 = arith.addf %a0, %a1 : f32
    %v2 = arith.addf %v1, %out : f32
    linalg.yield %v2 : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
