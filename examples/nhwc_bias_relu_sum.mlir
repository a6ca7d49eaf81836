// A small network tail: NHWC activations added to an NCHW bias map, ReLU, then a per-channel
// sum over H and W. IREE forms dispatches from it; ldsopt lowers each one (the transposed
// add through LDS, the reduction across lanes and subgroups) and says which pass did what.
func.func @main(%x: tensor<8x14x14x96xf32>, %bias: tensor<8x96x14x14xf32>) -> (tensor<8x96x14x14xf32>, tensor<8x96xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x96x14x14xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>,
                       affine_map<(n, c, h, w) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %bias : tensor<8x14x14x96xf32>, tensor<8x96x14x14xf32>) outs(%e : tensor<8x96x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x96x14x14xf32>
  %e2 = tensor.empty() : tensor<8x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x96xf32>) -> tensor<8x96xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>],
      iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%y : tensor<8x96x14x14xf32>) outs(%f : tensor<8x96xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x96xf32>
  return %y, %sum : tensor<8x96x14x14xf32>, tensor<8x96xf32>
}
