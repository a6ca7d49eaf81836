func.func @main(%a0: tensor<4x6x10xf16>) -> tensor<4x6x10xf16> {
  %e = tensor.empty() : tensor<4x6x10xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a0 : tensor<4x6x10xf16>) outs(%e : tensor<4x6x10xf16>) {
  ^bb0(%x0: f16, %o: f16):
    %k = arith.constant 0.5 : f16
    %m = arith.mulf %x0, %k : f16
    %y = math.exp %m : f16
    linalg.yield %y : f16
  } -> tensor<4x6x10xf16>
  return %r : tensor<4x6x10xf16>
}
