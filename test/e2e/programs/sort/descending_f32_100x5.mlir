// Keys alone sorted descending (`ogt`) down the columns: the sorted dim outermost (strided),
// 5 rows of 100 over 128 slots.
func.func @main(%x: tensor<100x5xf32>) -> tensor<100x5xf32> {
  %r = iree_linalg_ext.sort dimension(0) outs(%x : tensor<100x5xf32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<100x5xf32>
  return %r : tensor<100x5xf32>
}
