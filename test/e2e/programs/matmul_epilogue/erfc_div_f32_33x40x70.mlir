// matmul + x (1 - erf(x / sqrt 2)) + erf(x / sqrt 2), all f32: the erf's argument is a division
// by a constant and its value is read twice, once as 1 - erf (ldsopt/codegen/fast_math.py folds the
// divisor into the erf and 1 - erf into one quotient, and keeps erf itself for the sum).
func.func @main(%a: tensor<33x70xf32>, %b: tensor<70x40xf32>) -> tensor<33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x70xf32>, tensor<70x40xf32>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<33x40xf32>) outs(%e : tensor<33x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %sqrt2 = arith.constant 1.41421356 : f32
    %s = arith.divf %x, %sqrt2 : f32
    %erf = math.erf %s : f32
    %c = arith.subf %one, %erf : f32
    %p = arith.mulf %x, %c : f32
    %g = arith.addf %p, %erf : f32
    linalg.yield %g : f32
  } -> tensor<33x40xf32>
  return %r : tensor<33x40xf32>
}
