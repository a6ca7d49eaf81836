// The mean of rows of 640 (f32 in, f32 out): the sum, then a row map dividing by 640.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<24x640xf32>) -> tensor<24xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 640.0 : f32
  %e1 = tensor.empty() : tensor<24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<24xf32>) -> tensor<24xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<24x640xf32>) outs(%f : tensor<24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<24xf32>
  %r = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%s : tensor<24xf32>) outs(%e1 : tensor<24xf32>) {
  ^bb0(%ss: f32, %o: f32):
    %y = arith.divf %ss, %n : f32
    linalg.yield %y : f32
  } -> tensor<24xf32>
  return %r : tensor<24xf32>
}
