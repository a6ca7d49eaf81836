// Batch NT f16 + bias and GELU by tanh, rounded to f16 (64x128 tiles on sm_90a): M = 520
// and K = 264 end in partial tiles in each of the 3 batches.
func.func @main(%a: tensor<3x520x264xf16>, %b: tensor<3x512x264xf16>, %bias: tensor<512xf16>) -> tensor<3x520x512xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x520x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x520x512xf32>) -> tensor<3x520x512xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x520x264xf16>, tensor<3x512x264xf16>) outs(%f : tensor<3x520x512xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x520x512xf32>
  %e16 = tensor.empty() : tensor<3x520x512xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<3x520x512xf32>, tensor<512xf16>) outs(%e16 : tensor<3x520x512xf16>) {
  ^bb0(%x: f32, %bb: f16, %o: f16):
    %bf = arith.extf %bb : f16 to f32
    %s = arith.addf %x, %bf : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.7978845608 : f32
    %k1 = arith.constant 0.044715 : f32
    %s2 = arith.mulf %s, %s : f32
    %s3 = arith.mulf %s2, %s : f32
    %in = arith.mulf %k1, %s3 : f32
    %in2 = arith.addf %s, %in : f32
    %in3 = arith.mulf %k0, %in2 : f32
    %t = math.tanh %in3 : f32
    %t1 = arith.addf %one, %t : f32
    %hs = arith.mulf %half, %s : f32
    %g = arith.mulf %hs, %t1 : f32
    %g16 = arith.truncf %g : f32 to f16
    linalg.yield %g16 : f16
  } -> tensor<3x520x512xf16>
  return %y : tensor<3x520x512xf16>
}
