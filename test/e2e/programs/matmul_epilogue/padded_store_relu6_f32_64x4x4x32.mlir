// A 1x1 convolution's product (NCHW: out[o, h, w] = sum_c x[c, h, w] * w[o, c]) with ReLU6,
// padded for the next convolution: IREE fuses the pad into the dispatch, whose result is then
// stored into the interior of the padded tensor, at column 1 of rows 6 long (MobileNetV1's
// and MobileViT's blocks). A store vector of 2 or 4 would start at an odd element there.
func.func @main(%x: tensor<32x4x4xf32>, %w: tensor<64x32xf32>) -> tensor<64x6x6xf32> {
  %cst = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<64x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x4x4xf32>) -> tensor<64x4x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<32x4x4xf32>, tensor<64x32xf32>) outs(%f : tensor<64x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m : tensor<64x4x4xf32>) outs(%e : tensor<64x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %g = arith.maximumf %a, %cst : f32
    %h = arith.minimumf %g, %six : f32
    linalg.yield %h : f32
  } -> tensor<64x4x4xf32>
  %p = tensor.pad %r low[0, 1, 1] high[0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %cst : f32
  } : tensor<64x4x4xf32> to tensor<64x6x6xf32>
  return %p : tensor<64x6x6xf32>
}
