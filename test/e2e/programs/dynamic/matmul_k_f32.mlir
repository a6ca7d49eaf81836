// A matmul whose reduced dim K is dynamic (A [m, k]: read one element at a time along K; B
// [k, n]: its rows past K guarded): the K loop runs ceil(K / BK) steps counted at run time, and
// the last tile's elements past K are read as zeros in both operands.
func.func @main(%x: tensor<33x?xf32>, %w: tensor<?x48xf32>) -> tensor<33x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<33x48xf32>) -> tensor<33x48xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<33x?xf32>, tensor<?x48xf32>) outs(%acc : tensor<33x48xf32>) -> tensor<33x48xf32>
  return %mm : tensor<33x48xf32>
}
