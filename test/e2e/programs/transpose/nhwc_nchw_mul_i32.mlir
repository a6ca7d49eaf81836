// i32 NHWC * NCHW -> NCHW.
func.func @main(%a0: tensor<2x4x6x24xi32>, %a1: tensor<2x24x4x6xi32>) -> tensor<2x24x4x6xi32> {
  %e = tensor.empty() : tensor<2x24x4x6xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a0, %a1 : tensor<2x4x6x24xi32>, tensor<2x24x4x6xi32>) outs(%e : tensor<2x24x4x6xi32>) {
  ^bb0(%in0: i32, %in1: i32, %out: i32):
    %y = arith.muli %in0, %in1 : i32
    linalg.yield %y : i32
  } -> tensor<2x24x4x6xi32>
  return %r : tensor<2x24x4x6xi32>
}
