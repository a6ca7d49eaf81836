// GELU by erf: llvm-cpu has no f64 math.erf, so the reference is the program as written.
func.func @main(%x: tensor<16x300xf32>) -> tensor<16x300xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678 : f32
  %e = tensor.empty() : tensor<16x300xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x300xf32>) outs(%e : tensor<16x300xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %rsqrt2 : f32
    %erf = math.erf %s : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %in, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  } -> tensor<16x300xf32>
  return %y : tensor<16x300xf32>
}
