// Every second row of a [10, 64] f16 tensor (`x[0::2]`, 5 rows), doubled: the rows at a step
// of 128 halves stay contiguous and 16-byte aligned, so they are read in whole vectors.
func.func @main(%x: tensor<10x64xf16>) -> tensor<5x64xf16> {
  %s = tensor.extract_slice %x[0, 0] [5, 64] [2, 1] : tensor<10x64xf16> to tensor<5x64xf16>
  %two = arith.constant 2.0 : f16
  %e = tensor.empty() : tensor<5x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<5x64xf16>) outs(%e : tensor<5x64xf16>) {
  ^bb0(%a: f16, %out: f16):
    %y = arith.mulf %a, %two : f16
    linalg.yield %y : f16
  } -> tensor<5x64xf16>
  return %r : tensor<5x64xf16>
}
