// `linalg.matmul_transpose_b` as IREE before 3.13 spelled it (the tools upgrade it to
// `linalg.matmul` with indexing_maps): M = 1, f16 operands, f32 accumulation, cast to f16.
func.func @main(%a: tensor<1x40xf16>, %b: tensor<70x40xf16>) -> tensor<1x70xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x70xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x70xf32>) -> tensor<1x70xf32>
  %mm = linalg.matmul_transpose_b ins(%a, %b : tensor<1x40xf16>, tensor<70x40xf16>) outs(%z : tensor<1x70xf32>) -> tensor<1x70xf32>
  %e16 = tensor.empty() : tensor<1x70xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<1x70xf32>) outs(%e16 : tensor<1x70xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x70xf16>
  return %r : tensor<1x70xf16>
}
