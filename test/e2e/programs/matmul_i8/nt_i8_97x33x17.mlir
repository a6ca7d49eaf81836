// i8 x i8 -> i32, B transposed (N x K, K-contiguous like A), K = 17: one K step of 64 i8,
// 1-byte global reads (17-byte rows), tails on M, N and K; a generic starting from a fill of 7.
func.func @main(%a: tensor<97x17xi8>, %b: tensor<33x17xi8>) -> tensor<97x33xi32> {
  %seven = arith.constant 7 : i32
  %e = tensor.empty() : tensor<97x33xi32>
  %z = linalg.fill ins(%seven : i32) outs(%e : tensor<97x33xi32>) -> tensor<97x33xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<97x17xi8>, tensor<33x17xi8>) outs(%z : tensor<97x33xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xi = arith.extsi %x : i8 to i32
    %yi = arith.extsi %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<97x33xi32>
  return %r : tensor<97x33xi32>
}
