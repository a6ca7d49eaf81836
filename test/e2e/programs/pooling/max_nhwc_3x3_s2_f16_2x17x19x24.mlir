func.func @main(%x: tensor<2x17x19x24xf16>) -> tensor<2x8x9x24xf16> {
  %init = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<2x8x9x24xf16>
  %f = linalg.fill ins(%init : f16) outs(%e : tensor<2x8x9x24xf16>) -> tensor<2x8x9x24xf16>
  %win = tensor.empty() : tensor<3x3xf16>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<2x17x19x24xf16>, tensor<3x3xf16>) outs(%f : tensor<2x8x9x24xf16>) -> tensor<2x8x9x24xf16>
  return %y : tensor<2x8x9x24xf16>
}
