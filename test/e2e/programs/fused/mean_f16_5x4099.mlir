// The mean of rows of 4099 (f16 in, f32 out): the sum, then a row map dividing by 4099.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<5x4099xf16>) -> tensor<5xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4099.0 : f32
  %e1 = tensor.empty() : tensor<5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x4099xf16>) outs(%f : tensor<5xf32>) {
  ^bb0(%a: f16, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %y = arith.addf %a32, %o : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  %r = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%s : tensor<5xf32>) outs(%e1 : tensor<5xf32>) {
  ^bb0(%ss: f32, %o: f32):
    %y = arith.divf %ss, %n : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
