// NT f32: 128x128 tiles where the target takes them (CUDA, gfx942), tails on M, N and K.
func.func @main(%a: tensor<160x40xf32>, %b: tensor<192x40xf32>) -> tensor<160x192xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<160x192xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<160x192xf32>) -> tensor<160x192xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<160x40xf32>, tensor<192x40xf32>) outs(%f : tensor<160x192xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<160x192xf32>
  return %r : tensor<160x192xf32>
}
