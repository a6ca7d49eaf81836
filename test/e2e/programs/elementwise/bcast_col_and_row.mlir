func.func @main(%a0: tensor<33x64xf32>, %a1: tensor<33xf32>, %a2: tensor<64xf32>) -> tensor<33x64xf32> {
  %e = tensor.empty() : tensor<33x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1, %a2 : tensor<33x64xf32>, tensor<33xf32>, tensor<64xf32>) outs(%e : tensor<33x64xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %o: f32):
    %s = arith.addf %x0, %x1 : f32
    %t = arith.mulf %s, %x2 : f32
    linalg.yield %t : f32
  } -> tensor<33x64xf32>
  return %r : tensor<33x64xf32>
}
