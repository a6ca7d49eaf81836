// M = 1: f16 operands, f32 accumulation, GELU by tanh (0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))),
// f16 out.
func.func @main(%a: tensor<1x1000xf16>, %b: tensor<1000x72xf16>) -> tensor<1x72xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x72xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x72xf32>) -> tensor<1x72xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<1x1000xf16>, tensor<1000x72xf16>) outs(%z : tensor<1x72xf32>) -> tensor<1x72xf32>
  %e16 = tensor.empty() : tensor<1x72xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<1x72xf32>) outs(%e16 : tensor<1x72xf16>) {
  ^bb0(%x: f32, %o: f16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.044715 : f32
    %s2pi = arith.constant 0.7978845608028654 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %cx3 = arith.mulf %x3, %c : f32
    %in = arith.addf %x, %cx3 : f32
    %arg = arith.mulf %in, %s2pi : f32
    %t = math.tanh %arg : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %x, %half : f32
    %g = arith.mulf %h, %p : f32
    %r16 = arith.truncf %g : f32 to f16
    linalg.yield %r16 : f16
  } -> tensor<1x72xf16>
  return %r : tensor<1x72xf16>
}
