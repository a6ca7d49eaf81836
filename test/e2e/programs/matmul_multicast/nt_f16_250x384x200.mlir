// NT f16 -> f32 (both K-contiguous), M past the tiles (250: the last band 58 rows), K past them (200: 4 steps).
func.func @main(%a: tensor<250x200xf16>, %b: tensor<384x200xf16>) -> tensor<250x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<250x384xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<250x384xf32>) -> tensor<250x384xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<250x200xf16>, tensor<384x200xf16>) outs(%z : tensor<250x384xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<250x384xf32>
  return %mm : tensor<250x384xf32>
}
