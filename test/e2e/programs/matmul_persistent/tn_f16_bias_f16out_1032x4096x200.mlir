// TN f16 (A stored [k, m], both operands held MN-major) with a bias and the result rounded to
// f16, M and K tails (1032 rows, a multiple of 8 as wgmma's copies of an M-contiguous operand
// need; K 200): 9 x 16 = 144 tiles of 128x256 (`tiles=128x256x8x16`), so under
// `persistent=true` twelve workgroups take a second tile; the f16 output rows of each
// workgroup's last tile hold its tensor maps until that tile is stored. Two reductions read
// the result (rows weighted by w, columns summed): the checks stay small, and the epilogue
// stays in the matmul's dispatch.
func.func @main(%a: tensor<200x1032xf16>, %b: tensor<200x4096xf16>, %bias: tensor<4096xf32>, %w: tensor<4096xf32>) -> (tensor<1032xf32>, tensor<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1032x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1032x4096xf32>) -> tensor<1032x4096xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<200x1032xf16>, tensor<200x4096xf16>) outs(%f : tensor<1032x4096xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1032x4096xf32>
  %e2 = tensor.empty() : tensor<1032x4096xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<1032x4096xf32>, tensor<4096xf32>) outs(%e2 : tensor<1032x4096xf16>) {
  ^bb0(%x: f32, %bb: f32, %o: f16):
    %s = arith.addf %x, %bb : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1032x4096xf16>
  %e3 = tensor.empty() : tensor<1032xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1032xf32>) -> tensor<1032xf32>
  %rows = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%y, %w : tensor<1032x4096xf16>, tensor<4096xf32>) outs(%f3 : tensor<1032xf32>) {
  ^bb0(%x: f16, %wy: f32, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %p = arith.mulf %xe, %wy : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1032xf32>
  %e4 = tensor.empty() : tensor<4096xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4096xf32>) -> tensor<4096xf32>
  %cols = linalg.generic {indexing_maps = [affine_map<(n, m) -> (m, n)>, affine_map<(n, m) -> (n)>], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<1032x4096xf16>) outs(%f4 : tensor<4096xf32>) {
  ^bb0(%x: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %s = arith.addf %o, %xe : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  return %rows, %cols : tensor<1032xf32>, tensor<4096xf32>
}
