// NT f16, N = 5 (a skinny product: the plan takes a tile 16 wide along N, the grid along M).
func.func @main(%a: tensor<100x40xf16>, %b: tensor<5x40xf16>) -> tensor<100x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x5xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<100x5xf32>) -> tensor<100x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<100x40xf16>, tensor<5x40xf16>) outs(%f : tensor<100x5xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<100x5xf32>
  return %r : tensor<100x5xf32>
}
