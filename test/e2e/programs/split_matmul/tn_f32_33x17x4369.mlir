// f32 TN (A stored [k, m]: its chunks lead, [s, k', m]), ragged M and N, 4369 = 17 x 257
// (a prime chunk), from a zero fill.
func.func @main(%a: tensor<4369x33xf32>, %b: tensor<4369x17xf32>) -> tensor<33x17xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x17xf32>) -> tensor<33x17xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4369x33xf32>, tensor<4369x17xf32>) outs(%z : tensor<33x17xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<33x17xf32>
  return %r : tensor<33x17xf32>
}
