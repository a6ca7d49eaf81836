// NN f16 -> f32: M, N and K (16 steps of 64, the last of 40) off every tile; N a multiple of 8, as wgmma copies it.
func.func @main(%a: tensor<200x1000xf16>, %b: tensor<1000x296xf16>) -> tensor<200x296xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x296xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<200x296xf32>) -> tensor<200x296xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<200x1000xf16>, tensor<1000x296xf16>) outs(%z : tensor<200x296xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<200x296xf32>
  return %mm : tensor<200x296xf32>
}
