// NN f16 with an M tail (2056 = 16.06 x 128), K 520 (8.1 x 64) and N in whole tiles (2304), its
// f32 product through the LDS output stage: under `tiles=128x128x8x8 workgroups-per-cu=1
// persistent=true` 17 x 18 = 306 tiles of 128x128, whose 64 KiB f32 tile fits the LDS the
// operands leave, walked by 132 workgroups. The rows weighted by w keep the check small.
func.func @main(%a: tensor<2056x520xf16>, %b: tensor<520x2304xf16>, %w: tensor<2304xf32>) -> tensor<2056xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2056x2304xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2056x2304xf32>) -> tensor<2056x2304xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2056x520xf16>, tensor<520x2304xf16>) outs(%f : tensor<2056x2304xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2056x2304xf32>
  %e2 = tensor.empty() : tensor<2056xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2056xf32>) -> tensor<2056xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : tensor<2056x2304xf32>, tensor<2304xf32>) outs(%f2 : tensor<2056xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2056xf32>
  return %r : tensor<2056xf32>
}
