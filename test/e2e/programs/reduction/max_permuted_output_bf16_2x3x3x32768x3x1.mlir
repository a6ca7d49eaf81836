// Found by the fuzzer: a bf16 max over a long middle dim (32768, split in two dispatches) with
// a prologue (negf), its output written through a permutation of the kept dims; IREE 3.13's own
// pipeline gets it wrong on lavapipe, unsplit and in f32 too.
func.func @main(%x0: tensor<2x3x3x32768x3x1xbf16>) -> tensor<3x3x3x2x1xbf16> {
  %cst = arith.constant 0xFF80 : bf16
  %e = tensor.empty() : tensor<3x3x3x2x1xbf16>
  %f = linalg.fill ins(%cst : bf16) outs(%e : tensor<3x3x3x2x1xbf16>) -> tensor<3x3x3x2x1xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1, d4, d0, d5)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel", "parallel"]}
      ins(%x0 : tensor<2x3x3x32768x3x1xbf16>) outs(%f : tensor<3x3x3x2x1xbf16>) {
  ^bb0(%a0: bf16, %out: bf16):
    %v1 = arith.negf %a0 : bf16
    %v2 = arith.maximumf %v1, %out : bf16
    linalg.yield %v2 : bf16
  } -> tensor<3x3x3x2x1xbf16>
  return %r : tensor<3x3x3x2x1xbf16>
}

