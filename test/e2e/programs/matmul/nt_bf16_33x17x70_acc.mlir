// NT bf16: B transposed, odd sizes, loaded init.
func.func @main(%a: tensor<33x70xbf16>, %b: tensor<17x70xbf16>, %c: tensor<33x17xf32>) -> tensor<33x17xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<33x70xbf16>, tensor<17x70xbf16>) outs(%c : tensor<33x17xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<33x17xf32>
  return %r : tensor<33x17xf32>
}
