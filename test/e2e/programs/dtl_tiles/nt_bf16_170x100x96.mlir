// NT bf16 for a 160x64 tile (tiles=160x64x5x4: 512 threads), tails on M and N, 3 K steps.
func.func @main(%a: tensor<170x96xbf16>, %b: tensor<100x96xbf16>) -> tensor<170x100xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<170x100xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<170x100xf32>) -> tensor<170x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<170x96xbf16>, tensor<100x96xbf16>) outs(%f : tensor<170x100xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<170x100xf32>
  return %r : tensor<170x100xf32>
}
