func.func @main(%a: tensor<37x64xbf16>, %b: tensor<64xbf16>) -> tensor<37x64xbf16> {
  %e = tensor.empty() : tensor<37x64xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0,d1)->(d0,d1)>, affine_map<(d0,d1)->(d1)>, affine_map<(d0,d1)->(d0,d1)>], iterator_types=["parallel","parallel"]} ins(%a, %b : tensor<37x64xbf16>, tensor<64xbf16>) outs(%e : tensor<37x64xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %s = arith.addf %x, %y : bf16
    linalg.yield %s : bf16
  } -> tensor<37x64xbf16>
  return %r : tensor<37x64xbf16>
}
