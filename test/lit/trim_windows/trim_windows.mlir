// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-trim-windows)' | filecheck %s

// MobileViT's downsampling: a 2x2 image padded to 4x4, a 3x3 window at stride 2, one output
// position. The window reads rows and columns 0..2: the pad's high side goes.
// CHECK-LABEL: func.func @one_position_depthwise
// CHECK:         %[[P:.+]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK:         tensor<1x96x2x2xf32> to tensor<1x96x3x3xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK-SAME:      ins(%[[P]], %arg1 : tensor<1x96x3x3xf32>, tensor<96x3x3xf32>)
func.func @one_position_depthwise(%x: tensor<1x96x2x2xf32>, %w: tensor<96x3x3xf32>, %o: tensor<1x96x1x1xf32>)
    -> tensor<1x96x1x1xf32> {
  %c = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<1x96x2x2xf32> to tensor<1x96x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%p, %w : tensor<1x96x4x4xf32>, tensor<96x3x3xf32>) outs(%o : tensor<1x96x1x1xf32>) -> tensor<1x96x1x1xf32>
  return %r : tensor<1x96x1x1xf32>
}

// -----

// ResNet's stem: 224 padded by 3 to 230, a 7x7 window at stride 2 reads 0..228. The pad is also
// read by another op, which keeps the original.
// CHECK-LABEL: func.func @stem_pad_shared
// CHECK:         %[[P:.+]] = tensor.pad %arg0 low[0, 3, 3, 0] high[0, 3, 3, 0]
// CHECK:         %[[T:.+]] = tensor.pad %arg0 low[0, 3, 3, 0] high[0, 2, 2, 0]
// CHECK:         tensor<1x224x224x3xf32> to tensor<1x229x229x3xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-SAME:      ins(%[[T]], %arg1 : tensor<1x229x229x3xf32>, tensor<7x7x3x8xf32>)
// CHECK:         return {{.*}}, %[[P]]
func.func @stem_pad_shared(%x: tensor<1x224x224x3xf32>, %w: tensor<7x7x3x8xf32>, %o: tensor<1x112x112x8xf32>)
    -> (tensor<1x112x112x8xf32>, tensor<1x230x230x3xf32>) {
  %c = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%a: index, %i: index, %j: index, %b: index):
    tensor.yield %c : f32
  } : tensor<1x224x224x3xf32> to tensor<1x230x230x3xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x230x230x3xf32>, tensor<7x7x3x8xf32>) outs(%o : tensor<1x112x112x8xf32>)
      -> tensor<1x112x112x8xf32>
  return %r, %p : tensor<1x112x112x8xf32>, tensor<1x230x230x3xf32>
}

// -----

// A window of one output position over an unpadded input wider than it: a slice of what it reads
// (dilation 2: rows 0, 2, 4 of 6).
// CHECK-LABEL: func.func @one_position_slice
// CHECK:         %[[S:.+]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 5, 5] [1, 1, 1, 1]
// CHECK:         linalg.pooling_nchw_max
// CHECK-SAME:      ins(%[[S]], %arg1 : tensor<1x4x5x5xf32>, tensor<3x3xf32>)
func.func @one_position_slice(%x: tensor<1x4x6x6xf32>, %k: tensor<3x3xf32>, %o: tensor<1x4x1x1xf32>)
    -> tensor<1x4x1x1xf32> {
  %r = linalg.pooling_nchw_max {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %k : tensor<1x4x6x6xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  return %r : tensor<1x4x1x1xf32>
}

// -----

// Left alone: a 1x1 stride-2 shortcut over an even image reads rows 0..54 of 56, but its windows
// have 28 output positions and the input is no pad (a slice would be a copy IREE dispatches); a
// window that reads its input whole; a dynamic image.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.extract_slice
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %arg1 : tensor<1x8x56x56xf32>
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %arg3 : tensor<1x8x56x56xf32>
// CHECK:         linalg.pooling_nchw_sum {{.*}} ins(%arg5, %arg6 : tensor<1x8x?x?xf32>
func.func @left_alone(%x: tensor<1x8x56x56xf32>, %w: tensor<16x8x1x1xf32>, %o: tensor<1x16x28x28xf32>,
                      %w3: tensor<16x8x3x3xf32>, %o3: tensor<1x16x54x54xf32>,
                      %d: tensor<1x8x?x?xf32>, %k: tensor<2x2xf32>, %od: tensor<1x8x?x?xf32>)
    -> (tensor<1x16x28x28xf32>, tensor<1x16x54x54xf32>, tensor<1x8x?x?xf32>) {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x56x56xf32>, tensor<16x8x1x1xf32>) outs(%o : tensor<1x16x28x28xf32>)
      -> tensor<1x16x28x28xf32>
  %r3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w3 : tensor<1x8x56x56xf32>, tensor<16x8x3x3xf32>) outs(%o3 : tensor<1x16x54x54xf32>)
      -> tensor<1x16x54x54xf32>
  %rd = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%d, %k : tensor<1x8x?x?xf32>, tensor<2x2xf32>) outs(%od : tensor<1x8x?x?xf32>) -> tensor<1x8x?x?xf32>
  return %r, %r3, %rd : tensor<1x16x28x28xf32>, tensor<1x16x54x54xf32>, tensor<1x8x?x?xf32>
}
