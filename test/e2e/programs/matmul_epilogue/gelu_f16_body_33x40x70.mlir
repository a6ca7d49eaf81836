// matmul + row bias + GELU by erf as an f16 ONNX graph imports (MatMul, Add, Div, Erf, Add, Mul,
// Mul in f16): the f32 accumulator is truncated to f16 first and the GELU runs on f16, its erf
// too (ldsopt computes an f16 erf in f32, as IREE does). M, N and K are not multiples of a tile.
func.func @main(%a: tensor<33x70xf16>, %b: tensor<70x40xf16>, %bias: tensor<40xf16>) -> tensor<33x40xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x70xf16>, tensor<70x40xf16>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  %e16 = tensor.empty() : tensor<33x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<33x40xf32>, tensor<40xf16>) outs(%e16 : tensor<33x40xf16>) {
  ^bb0(%x: f32, %c: f16, %o: f16):
    %half = arith.constant 0.5 : f16
    %one = arith.constant 1.0 : f16
    %sqrt2 = arith.constant 1.4142135 : f16
    %t = arith.truncf %x : f32 to f16
    %y = arith.addf %t, %c : f16
    %s = arith.divf %y, %sqrt2 : f16
    %erf = math.erf %s : f16
    %p = arith.addf %erf, %one : f16
    %h = arith.mulf %y, %p : f16
    %g = arith.mulf %h, %half : f16
    linalg.yield %g : f16
  } -> tensor<33x40xf16>
  return %r : tensor<33x40xf16>
}
