// i32 row sums into an initial value passed in: the second reduction starts from it, the
// first from 0. Run with min-reduced=4096: 12288 = 3 x 4096, so S = 3 (chunks of 4096).
func.func @main(%x0: tensor<2x12288xi32>, %init: tensor<2xi32>) -> tensor<2xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<2x12288xi32>) outs(%init : tensor<2xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %s = arith.addi %out, %in0 : i32
    linalg.yield %s : i32
  } -> tensor<2xi32>
  return %r : tensor<2xi32>
}
