// matmul in f32, result truncated to bf16.
func.func @main(%a: tensor<33x70xf32>, %b: tensor<70x40xf32>) -> tensor<33x40xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x70xf32>, tensor<70x40xf32>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  %eb = tensor.empty() : tensor<33x40xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<33x40xf32>) outs(%eb : tensor<33x40xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<33x40xbf16>
  return %r : tensor<33x40xbf16>
}
