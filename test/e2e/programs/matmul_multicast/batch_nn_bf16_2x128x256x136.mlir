// NN bf16 -> f32, a batch of 2 (maps of rank 3), K past the tiles (3 steps: a multicast of 4 LDS tiles refuses it).
func.func @main(%a: tensor<2x128x136xbf16>, %b: tensor<2x136x256xbf16>) -> tensor<2x128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128x256xf32>) -> tensor<2x128x256xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x128x136xbf16>, tensor<2x136x256xbf16>) outs(%z : tensor<2x128x256xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x128x256xf32>
  return %mm : tensor<2x128x256xf32>
}
