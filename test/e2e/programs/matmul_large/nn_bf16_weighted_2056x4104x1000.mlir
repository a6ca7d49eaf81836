// NN bf16 with tails on M (2056 = 16.06 x 128), N (4104 = 16.03 x 256) and K (1000 = 15.6 x
// 64): on sm_90a the wgmma scheme with B [k, n] held MN-major (wgmma transposes it), a grid of
// several waves on the H200; the rows weighted by w keep the check small while every element
// of the product counts.
func.func @main(%a: tensor<2056x1000xbf16>, %b: tensor<1000x4104xbf16>, %w: tensor<4104xf32>) -> tensor<2056xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2056x4104xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2056x4104xf32>) -> tensor<2056x4104xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2056x1000xbf16>, tensor<1000x4104xbf16>) outs(%f : tensor<2056x4104xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2056x4104xf32>
  %e2 = tensor.empty() : tensor<2056xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2056xf32>) -> tensor<2056xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : tensor<2056x4104xf32>, tensor<4104xf32>) outs(%f2 : tensor<2056xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2056xf32>
  return %r : tensor<2056xf32>
}
