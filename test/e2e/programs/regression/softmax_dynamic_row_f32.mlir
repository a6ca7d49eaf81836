// From iree-org/iree tests/e2e/regression/linalg_ops_dynamic.mlir
// (@softmax_dynamic_reduction_N65_K1531 and its N2_K4, N1_K1 siblings): linalg.softmax over
// a row of dynamic length; the constant input is an argument here.
func.func @main(%in: tensor<65x?xf32>) -> tensor<65x?xf32> {
  %c1 = arith.constant 1 : index
  %k = tensor.dim %in, %c1 : tensor<65x?xf32>
  %out = tensor.empty(%k) : tensor<65x?xf32>
  %sm = linalg.softmax dimension(1) ins(%in : tensor<65x?xf32>) outs(%out : tensor<65x?xf32>) -> tensor<65x?xf32>
  return %sm : tensor<65x?xf32>
}
