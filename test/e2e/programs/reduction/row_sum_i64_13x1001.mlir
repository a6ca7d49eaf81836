// Row sums in i64 of squares each offset by 2^32 (inputs of +-1000), so that every sum (about
// 4.3e12) needs the high word: a kernel that kept 32 bits, or lost them in its shuffles,
// differs. Rows of 1001 (7 x 11 x 13).
func.func @main(%a: tensor<13x1001xi64>) -> tensor<13xi64> {
  %c0 = arith.constant 0 : i64
  %big = arith.constant 4294967296 : i64
  %e = tensor.empty() : tensor<13xi64>
  %f = linalg.fill ins(%c0 : i64) outs(%e : tensor<13xi64>) -> tensor<13xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<13x1001xi64>) outs(%f : tensor<13xi64>) {
  ^bb0(%x: i64, %o: i64):
    %m = arith.muli %x, %x : i64
    %w = arith.addi %m, %big : i64
    %s = arith.addi %w, %o : i64
    linalg.yield %s : i64
  } -> tensor<13xi64>
  return %r : tensor<13xi64>
}
