// NT f16 for a 320x64 tile (tiles=320x64x5x4: 1024 threads), tails on M and N, 3 K steps; two
// 320-row tiles take 40 KiB of LDS: more than lavapipe has (32 KiB), so compiled for gfx942 and CUDA.
func.func @main(%a: tensor<330x96xf16>, %b: tensor<100x96xf16>) -> tensor<330x100xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<330x100xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<330x100xf32>) -> tensor<330x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<330x96xf16>, tensor<100x96xf16>) outs(%f : tensor<330x100xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<330x100xf32>
  return %r : tensor<330x100xf32>
}
