// NT f16 2100x2048x136 plus an f16 residual, then its rows weighted by w and its columns
// summed. On cuda-sm90a IREE forms the residual add and the column sums as one dispatch of
// rows read along memory (strided rows) of 6 bytes an element: a 32-byte sector holds 5,
// and the plan of 5 lanes a row that came of it failed the whole program ("no plan: lanes
// count 5 is not a power of two"). Lanes come in powers of two: 4.
func.func @main(%a: tensor<2100x136xf16>, %b: tensor<2048x136xf16>, %r: tensor<2100x2048xf16>, %w: tensor<2048xf32>) -> (tensor<2100xf32>, tensor<2048xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2100x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2100x2048xf32>) -> tensor<2100x2048xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2100x136xf16>, tensor<2048x136xf16>) outs(%f : tensor<2100x2048xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2100x2048xf32>
  %e2 = tensor.empty() : tensor<2100x2048xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : tensor<2100x2048xf32>, tensor<2100x2048xf16>) outs(%e2 : tensor<2100x2048xf32>) {
  ^bb0(%x: f32, %res16: f16, %o: f32):
    %res = arith.extf %res16 : f16 to f32
    %s = arith.addf %x, %res : f32
    linalg.yield %s : f32
  } -> tensor<2100x2048xf32>
  %e3 = tensor.empty() : tensor<2100xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2100xf32>) -> tensor<2100xf32>
  %rows = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%y, %w : tensor<2100x2048xf32>, tensor<2048xf32>) outs(%f3 : tensor<2100xf32>) {
  ^bb0(%x: f32, %wy: f32, %o: f32):
    %p = arith.mulf %x, %wy : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2100xf32>
  %e4 = tensor.empty() : tensor<2048xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2048xf32>) -> tensor<2048xf32>
  %cols = linalg.generic {indexing_maps = [affine_map<(n, m) -> (m, n)>, affine_map<(n, m) -> (n)>], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<2100x2048xf32>) outs(%f4 : tensor<2048xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  } -> tensor<2048xf32>
  return %rows, %cols : tensor<2100xf32>, tensor<2048xf32>
}
