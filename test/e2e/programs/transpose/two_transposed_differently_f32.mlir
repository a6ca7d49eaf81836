// Two inputs transposed differently: the tile spans three dims, two LDS buffers.
func.func @main(%a0: tensor<16x12x8xf32>, %a1: tensor<8x16x12xf32>, %a2: tensor<8x12x16xf32>) -> tensor<8x12x16xf32> {
  %e = tensor.empty() : tensor<8x12x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a0, %a1, %a2 : tensor<16x12x8xf32>, tensor<8x16x12xf32>, tensor<8x12x16xf32>) outs(%e : tensor<8x12x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %out: f32):
    %s = arith.addf %in0, %in1 : f32
    %y = arith.addf %s, %in2 : f32
    linalg.yield %y : f32
  } -> tensor<8x12x16xf32>
  return %r : tensor<8x12x16xf32>
}
