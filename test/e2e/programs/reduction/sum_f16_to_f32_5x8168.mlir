// f16 rows of 8 * 1021 (a prime) accumulated in f32: 2042 vectors of 4 over 256 threads, 7 or
// 8 each, loaded 8 at a time: threads with 8 run one whole group, threads with 7 none and 7
// guarded leftovers.
func.func @main(%x0: tensor<5x8168xf16>) -> tensor<5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<5x8168xf16>) outs(%f : tensor<5xf32>) {
  ^bb0(%in0: f16, %out: f32):
    %x = arith.extf %in0 : f16 to f32
    %s = arith.addf %x, %out : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
