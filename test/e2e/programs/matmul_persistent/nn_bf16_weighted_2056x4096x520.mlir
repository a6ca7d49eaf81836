// NN bf16 with tails on M (2056 = 16.06 x 128) and K (520 = 8.1 x 64), N in whole tiles
// (4096): 17 x 16 = 272 tiles of 128x256 (`tiles=128x256x8x16`), about two a workgroup when
// `persistent=true` walks them on the 132 SMs, the last few workgroups one fewer; the next
// tile's copies cross each tile's last K step. The rows weighted by w keep the check small
// while every element of the product counts.
func.func @main(%a: tensor<2056x520xbf16>, %b: tensor<520x4096xbf16>, %w: tensor<4096xf32>) -> tensor<2056xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2056x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2056x4096xf32>) -> tensor<2056x4096xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2056x520xbf16>, tensor<520x4096xbf16>) outs(%f : tensor<2056x4096xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2056x4096xf32>
  %e2 = tensor.empty() : tensor<2056xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2056xf32>) -> tensor<2056xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : tensor<2056x4096xf32>, tensor<4096xf32>) outs(%f2 : tensor<2056xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2056xf32>
  return %r : tensor<2056xf32>
}
