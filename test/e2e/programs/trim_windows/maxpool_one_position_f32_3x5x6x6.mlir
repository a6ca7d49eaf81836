// A max pool of one output position over an unpadded 6x6 input whose 3x3 window, dilated by 2,
// reads rows and columns 0, 2, 4: the input is sliced to 5x5.
func.func @main(%x: tensor<3x5x6x6xf32>) -> tensor<3x5x1x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %k = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<3x5x1x1xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<3x5x1x1xf32>) -> tensor<3x5x1x1xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %k : tensor<3x5x6x6xf32>, tensor<3x3xf32>) outs(%f : tensor<3x5x1x1xf32>) -> tensor<3x5x1x1xf32>
  return %y : tensor<3x5x1x1xf32>
}
