// GPT-2's Split of its fused QKV projection over a dynamic sequence: three column slices of a
// 1x?x96 tensor. IREE's copy dispatches (slow_memcpy) view a binding whose batch dim has its
// stride read at run time (strided<[?, 96, 1]>), a dim of extent 1.
func.func @main(%x: tensor<1x?x96xf32>) -> (tensor<1x?x32xf32>, tensor<1x?x32xf32>, tensor<1x?x32xf32>) {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?x96xf32>
  %q = tensor.extract_slice %x[0, 0, 0] [1, %n, 32] [1, 1, 1] : tensor<1x?x96xf32> to tensor<1x?x32xf32>
  %k = tensor.extract_slice %x[0, 0, 32] [1, %n, 32] [1, 1, 1] : tensor<1x?x96xf32> to tensor<1x?x32xf32>
  %v = tensor.extract_slice %x[0, 0, 64] [1, %n, 32] [1, 1, 1] : tensor<1x?x96xf32> to tensor<1x?x32xf32>
  return %q, %k, %v : tensor<1x?x32xf32>, tensor<1x?x32xf32>, tensor<1x?x32xf32>
}
