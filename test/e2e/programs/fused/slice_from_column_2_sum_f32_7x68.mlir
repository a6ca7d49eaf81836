// Row sums of a slice from column 2 of rows of 68 (64 elements each): vectors of 4 would
// start at column 2 + 4j, which IREE's SPIR-V lowering reads at the index divided by 4.
func.func @main(%x: tensor<7x68xf32>) -> tensor<7xf32> {
  %cst = arith.constant 0.0 : f32
  %a = tensor.extract_slice %x[0, 2] [7, 64] [1, 1] : tensor<7x68xf32> to tensor<7x64xf32>
  %er = tensor.empty() : tensor<7xf32>
  %z = linalg.fill ins(%cst : f32) outs(%er : tensor<7xf32>) -> tensor<7xf32>
  %r = linalg.reduce ins(%a : tensor<7x64xf32>) outs(%z : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %v = arith.addf %in, %acc : f32
      linalg.yield %v : f32
    }
  return %r : tensor<7xf32>
}
