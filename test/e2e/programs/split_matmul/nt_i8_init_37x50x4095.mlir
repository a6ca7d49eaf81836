// i8 x i8 -> i32 NT (B stored [n, k]), ragged M and N, 4095 = 13 x 315, accumulating into a
// loaded C: the partials start from zero, their sum from C; i32 sums are exact.
func.func @main(%a: tensor<37x4095xi8>, %b: tensor<50x4095xi8>, %c: tensor<37x50xi32>) -> tensor<37x50xi32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<37x4095xi8>, tensor<50x4095xi8>) outs(%c : tensor<37x50xi32>) -> tensor<37x50xi32>
  return %r : tensor<37x50xi32>
}
