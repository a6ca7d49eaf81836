// An f16 batch matmul of a static batch of two and a dynamic count of rows (M), accumulated
// into f32, with a fused consumer (a bias along N, then a tanh): a projection of two sequences
// of a length read at run time (of a batch of one IREE makes a plain matmul).
#out = affine_map<(b, m, n) -> (b, m, n)>
#bias = affine_map<(b, m, n) -> (n)>
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#w = affine_map<(b, m, n, k) -> (b, k, n)>
#o = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @main(%x: tensor<2x?x32xf16>, %w: tensor<2x32x48xf16>, %bias: tensor<48xf32>) -> tensor<2x?x48xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c1 : tensor<2x?x32xf16>
  %e = tensor.empty(%m) : tensor<2x?x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x48xf32>) -> tensor<2x?x48xf32>
  %mm = linalg.generic {indexing_maps = [#a, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x?x32xf16>, tensor<2x32x48xf16>) outs(%acc : tensor<2x?x48xf32>) {
  ^bb0(%p: f16, %q: f16, %r: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %t = arith.mulf %pe, %qe : f32
    %s = arith.addf %r, %t : f32
    linalg.yield %s : f32
  } -> tensor<2x?x48xf32>
  %y = linalg.generic {indexing_maps = [#out, #bias, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<2x?x48xf32>, tensor<48xf32>) outs(%e : tensor<2x?x48xf32>) {
  ^bb0(%v: f32, %z: f32, %o: f32):
    %s = arith.addf %v, %z : f32
    %g = math.tanh %s : f32
    linalg.yield %g : f32
  } -> tensor<2x?x48xf32>
  return %y : tensor<2x?x48xf32>
}
