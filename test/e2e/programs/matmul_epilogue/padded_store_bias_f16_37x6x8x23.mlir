// A 1x1 convolution's product with a bias, in f16, padded by 1 on each side for the next
// convolution: the dispatch stores it into the padded tensor's interior, whose rows (8 long)
// start at element 11 + 10 h of rows 10 long: odd, so no store vector wider than an element
// is aligned to its size there (M and K prime).
func.func @main(%x: tensor<23x6x8xf16>, %w: tensor<37x23xf16>, %bias: tensor<37xf16>) -> tensor<37x8x10xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<37x6x8xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<37x6x8xf16>) -> tensor<37x6x8xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<23x6x8xf16>, tensor<37x23xf16>) outs(%f : tensor<37x6x8xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %o, %p : f16
    linalg.yield %s : f16
  } -> tensor<37x6x8xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %bias : tensor<37x6x8xf16>, tensor<37xf16>) outs(%e : tensor<37x6x8xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<37x6x8xf16>
  %p = tensor.pad %r low[0, 1, 1] high[0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %cst : f16
  } : tensor<37x6x8xf16> to tensor<37x8x10xf16>
  return %p : tensor<37x8x10xf16>
}
