// An integer consumer of an NT i8 matmul: an i32 bias per column added to the i32 sums
// (arith.addi), i32 out: a quantized layer's bias before its requantization.
func.func @main(%a: tensor<31x67xi8>, %b: tensor<23x67xi8>, %bias: tensor<23xi32>) -> tensor<31x23xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<31x23xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<31x23xi32>) -> tensor<31x23xi32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<31x67xi8>, tensor<23x67xi8>) outs(%z : tensor<31x23xi32>) -> tensor<31x23xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<31x23xi32>, tensor<23xi32>) outs(%e : tensor<31x23xi32>) {
  ^bb0(%x: i32, %c: i32, %o: i32):
    %y = arith.addi %x, %c : i32
    linalg.yield %y : i32
  } -> tensor<31x23xi32>
  return %r : tensor<31x23xi32>
}
