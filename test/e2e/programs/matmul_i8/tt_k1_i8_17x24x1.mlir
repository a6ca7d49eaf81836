// K = 1, both operands transposed (A as K x M, B as N x K): `linalg.matmul` with
// indexing_maps, i8 into i32.
func.func @main(%a: tensor<1x17xi8>, %b: tensor<24x1xi8>) -> tensor<17x24xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<17x24xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<17x24xi32>) -> tensor<17x24xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<1x17xi8>, tensor<24x1xi8>) outs(%z : tensor<17x24xi32>) -> tensor<17x24xi32>
  return %r : tensor<17x24xi32>
}
