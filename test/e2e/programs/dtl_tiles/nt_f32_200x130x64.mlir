// NT f32 for a 160x64 tile (tiles=160x64x5x4: 512 threads), tails on M and N, 4 K steps.
func.func @main(%a: tensor<200x64xf32>, %b: tensor<130x64xf32>) -> tensor<200x130xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x130xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<200x130xf32>) -> tensor<200x130xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<200x64xf32>, tensor<130x64xf32>) outs(%f : tensor<200x130xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<200x130xf32>
  return %r : tensor<200x130xf32>
}
