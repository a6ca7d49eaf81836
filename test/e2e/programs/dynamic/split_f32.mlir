// A fused projection's Split over a dynamic sequence: two column slices of a ?x96 tensor, each
// IREE's copy dispatch (slow_memcpy) of a subview of dynamic rows.
func.func @main(%x: tensor<?x96xf32>) -> (tensor<?x32xf32>, tensor<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x96xf32>
  %a = tensor.extract_slice %x[0, 0] [%n, 32] [1, 1] : tensor<?x96xf32> to tensor<?x32xf32>
  %b = tensor.extract_slice %x[0, 32] [%n, 32] [1, 1] : tensor<?x96xf32> to tensor<?x32xf32>
  return %a, %b : tensor<?x32xf32>, tensor<?x32xf32>
}
