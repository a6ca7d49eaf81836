// Softmax over the channels of NCHW activations with every dim dynamic (a segmentation head
// served at any batch, class count and size): rows strided in memory, one a tile.
func.func @main(%in: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %in, %c0 : tensor<?x?x?xf32>
  %c = tensor.dim %in, %c1 : tensor<?x?x?xf32>
  %hw = tensor.dim %in, %c2 : tensor<?x?x?xf32>
  %out = tensor.empty(%n, %c, %hw) : tensor<?x?x?xf32>
  %sm = linalg.softmax dimension(1) ins(%in : tensor<?x?x?xf32>) outs(%out : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %sm : tensor<?x?x?xf32>
}
