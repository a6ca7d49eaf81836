func.func @main(%a0: tensor<96x160xf16>, %a1: tensor<160xf16>) -> tensor<96x160xf32> {
  %e = tensor.empty() : tensor<96x160xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<96x160xf16>, tensor<160xf16>) outs(%e : tensor<96x160xf32>) {
  ^bb0(%x0: f16, %x1: f16, %o: f32):
    %a = arith.extf %x0 : f16 to f32
    %b = arith.extf %x1 : f16 to f32
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<96x160xf32>
  return %r : tensor<96x160xf32>
}
