// bf16 x bf16 -> bf16 matmul with a fused bias (its consumer reads the product rounded to bf16).
func.func @main(%a: tensor<33x64xbf16>, %b: tensor<64x72xbf16>, %bias: tensor<72xbf16>) -> tensor<33x72xbf16> {
  %cst = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<33x72xbf16>
  %z = linalg.fill ins(%cst : bf16) outs(%e : tensor<33x72xbf16>) -> tensor<33x72xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<33x64xbf16>, tensor<64x72xbf16>) outs(%z : tensor<33x72xbf16>) -> tensor<33x72xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r, %bias : tensor<33x72xbf16>, tensor<72xbf16>) outs(%e : tensor<33x72xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %out: bf16):
    %s = arith.addf %x, %y : bf16
    linalg.yield %s : bf16
  } -> tensor<33x72xbf16>
  return %o : tensor<33x72xbf16>
}
