// M = 1 (GEMV-like), A transposed (K x M): `linalg.matmul` with indexing_maps, i8 into i32.
func.func @main(%a: tensor<70x1xi8>, %b: tensor<70x40xi8>) -> tensor<1x40xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x40xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<1x40xi32>) -> tensor<1x40xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<70x1xi8>, tensor<70x40xi8>) outs(%z : tensor<1x40xi32>) -> tensor<1x40xi32>
  return %r : tensor<1x40xi32>
}
