// NN f16 -> f32 with one K step: a multicast refuses it (no K tile past its cp.async ones), unshared.
func.func @main(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%z : tensor<128x256xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}
