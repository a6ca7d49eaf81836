// i8 A^T + B, 128x256: LDS rows of 64 + 1 bytes, vector writes at odd addresses.
func.func @main(%a0: tensor<256x128xi8>, %a1: tensor<128x256xi8>) -> tensor<128x256xi8> {
  %e = tensor.empty() : tensor<128x256xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<256x128xi8>, tensor<128x256xi8>) outs(%e : tensor<128x256xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %y = arith.addi %in0, %in1 : i8
    linalg.yield %y : i8
  } -> tensor<128x256xi8>
  return %r : tensor<128x256xi8>
}
