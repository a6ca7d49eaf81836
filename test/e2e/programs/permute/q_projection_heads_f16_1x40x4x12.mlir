// A transformer's Q projection as IREE's ONNX importer writes it (BERT's shapes, smaller):
// a batch matmul with an f32 result, truncated to f16, biased, split into 4 heads of 12 and
// transposed to (batch, head, sequence, dim). IREE forms three dispatches, all ldsopt's: the
// matmul, the cast with the bias, and the head split (a permute keeping the fastest dim).
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
func.func @main(%x: tensor<1x40x48xf16>, %w: tensor<1x48x48xf16>, %bias: tensor<48xf16>) -> tensor<1x4x40x12xf16> {
  %cst = arith.constant 0.0 : f32
  %2 = tensor.empty() : tensor<1x40x48xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x40x48xf32>) -> tensor<1x40x48xf32>
  %4 = linalg.batch_matmul ins(%x, %w : tensor<1x40x48xf16>, tensor<1x48x48xf16>) outs(%3 : tensor<1x40x48xf32>) -> tensor<1x40x48xf32>
  %5 = tensor.empty() : tensor<1x40x48xf16>
  %6 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x40x48xf32>) outs(%5 : tensor<1x40x48xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x40x48xf16>
  %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %bias : tensor<1x40x48xf16>, tensor<48xf16>) outs(%5 : tensor<1x40x48xf16>) {
  ^bb0(%in: f16, %b: f16, %out: f16):
    %s = arith.addf %in, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x40x48xf16>
  %expanded = tensor.expand_shape %7 [[0], [1], [2, 3]] output_shape [1, 40, 4, 12] : tensor<1x40x48xf16> into tensor<1x40x4x12xf16>
  %16 = tensor.empty() : tensor<1x4x40x12xf16>
  %transposed = linalg.transpose ins(%expanded : tensor<1x40x4x12xf16>) outs(%16 : tensor<1x4x40x12xf16>) permutation = [0, 2, 1, 3]
  return %transposed : tensor<1x4x40x12xf16>
}
