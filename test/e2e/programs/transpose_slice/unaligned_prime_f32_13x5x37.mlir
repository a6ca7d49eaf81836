// A slice at an unaligned offset (row 1, column 3 of 13x5x37: 40 elements in, rows 37 apart)
// with prime extents, transposed and scaled: [13, 3, 29] -> [3, 29, 13]. No row of the slice
// starts aligned, so it is read one element at a time into LDS; the output is written in vectors.
func.func @main(%x: tensor<13x5x37xf32>) -> tensor<3x29x13xf32> {
  %s = tensor.extract_slice %x[0, 1, 3] [13, 3, 29] [1, 1, 1] : tensor<13x5x37xf32> to tensor<13x3x29xf32>
  %e = tensor.empty() : tensor<3x29x13xf32>
  %c = arith.constant 0.5 : f32
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<13x3x29xf32>) outs(%e : tensor<3x29x13xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x29x13xf32>
  return %t : tensor<3x29x13xf32>
}
