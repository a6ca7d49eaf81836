// A sum of negated values written as the accumulator less each value (`out - x`: what IREE's
// canonicalizer makes of `out + (-x)`, and so what a split reduction of a negated sum holds;
// the fuzzer found one that no pipeline could compile). ldsopt-vector-distribute reads it as
// `out + (-x)`, the same float, and takes it: 37 rows of 1031.
func.func @main(%x: tensor<37x1031xf32>) -> tensor<37xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x1031xf32>) outs(%f : tensor<37xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.subf %out, %a : f32
    linalg.yield %s : f32
  } -> tensor<37xf32>
  return %r : tensor<37xf32>
}
