// An i8 x i8 -> i32 matmul written as a generic (extsi, muli, addi), B transposed (N x K),
// starting from a constant fill of 7.
func.func @main(%a: tensor<64x48xi8>, %b: tensor<96x48xi8>) -> tensor<64x96xi32> {
  %seven = arith.constant 7 : i32
  %e = tensor.empty() : tensor<64x96xi32>
  %z = linalg.fill ins(%seven : i32) outs(%e : tensor<64x96xi32>) -> tensor<64x96xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x48xi8>, tensor<96x48xi8>) outs(%z : tensor<64x96xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xi = arith.extsi %x : i8 to i32
    %yi = arith.extsi %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<64x96xi32>
  return %r : tensor<64x96xi32>
}
