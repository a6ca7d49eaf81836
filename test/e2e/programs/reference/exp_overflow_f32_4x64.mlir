// exp(100x) / exp(100x) in f32: where 100x > 88.7, exp overflows to inf in f32 and the
// quotient is NaN, as the program is written (and where 100x < -87.3, exp is subnormal, 0 on a
// GPU that flushes them, and 0/0 NaN); the f64 reference computes 1 everywhere.
func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %init = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%init : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 100.0 : f32
    %m = arith.mulf %a, %c : f32
    %e = math.exp %m : f32
    %q = arith.divf %e, %e : f32
    linalg.yield %q : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
