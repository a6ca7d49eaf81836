// NT f16: batched, B transposed, f16, loaded init.
func.func @main(%a: tensor<2x64x48xf16>, %b: tensor<2x80x48xf16>, %c: tensor<2x64x80xf32>) -> tensor<2x64x80xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x64x48xf16>, tensor<2x80x48xf16>) outs(%c : tensor<2x64x80xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x64x80xf32>
  return %r : tensor<2x64x80xf32>
}
