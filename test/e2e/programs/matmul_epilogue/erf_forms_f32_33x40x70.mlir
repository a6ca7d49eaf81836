// matmul + 3 x (1 + erf(-0.6 x)) + (erf(0.6 x) + 1) * 2.5, all f32: the first term is a product
// of erf whose scale is negative (ldsopt/codegen/fast_math.py: 6 min(x, 0) + 3 |x| erfc(0.6 |x|)), the
// second a sum of erf read by no product of its argument (2 - erfc or erfc, by the sign of x).
func.func @main(%a: tensor<33x70xf32>, %b: tensor<70x40xf32>) -> tensor<33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x70xf32>, tensor<70x40xf32>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<33x40xf32>) outs(%e : tensor<33x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %three = arith.constant 3.0 : f32
    %k = arith.constant 2.5 : f32
    %neg = arith.constant -0.6 : f32
    %pos = arith.constant 0.6 : f32
    %s = arith.mulf %neg, %x : f32
    %erf = math.erf %s : f32
    %p = arith.addf %one, %erf : f32
    %x3 = arith.mulf %three, %x : f32
    %t = arith.mulf %p, %x3 : f32
    %s2 = arith.mulf %x, %pos : f32
    %erf2 = math.erf %s2 : f32
    %p2 = arith.addf %erf2, %one : f32
    %u = arith.mulf %p2, %k : f32
    %g = arith.addf %t, %u : f32
    linalg.yield %g : f32
  } -> tensor<33x40xf32>
  return %r : tensor<33x40xf32>
}
