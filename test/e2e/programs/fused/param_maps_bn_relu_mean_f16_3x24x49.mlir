// A global average pool of a BatchNorm + ReLU in f16, as IREE fuses an f16 CNN's: the
// BatchNorm's scale and shift extended to f32 by 1-D generics of their own (parameter maps
// over the channel dim), read by the row reduction through that dim.
func.func @main(%x: tensor<3x24x49xf16>, %scale: tensor<24xf16>, %shift: tensor<24xf16>) -> tensor<3x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<24xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%scale : tensor<24xf16>) outs(%e1 : tensor<24xf32>) {
    ^bb0(%in: f16, %o: f32):
      %v = arith.extf %in : f16 to f32
      linalg.yield %v : f32
  } -> tensor<24xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%shift : tensor<24xf16>) outs(%e1 : tensor<24xf32>) {
    ^bb0(%in: f16, %o: f32):
      %v = arith.extf %in : f16 to f32
      linalg.yield %v : f32
  } -> tensor<24xf32>
  %e2 = tensor.empty() : tensor<3x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x24xf32>) -> tensor<3x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %s, %t : tensor<3x24x49xf16>, tensor<24xf32>, tensor<24xf32>) outs(%z : tensor<3x24xf32>) {
    ^bb0(%a: f16, %sc: f32, %sh: f32, %acc: f32):
      %af = arith.extf %a : f16 to f32
      %m = arith.mulf %af, %sc : f32
      %b = arith.addf %m, %sh : f32
      %relu = arith.maximumf %b, %zero : f32
      %sum = arith.addf %acc, %relu : f32
      linalg.yield %sum : f32
  } -> tensor<3x24xf32>
  return %r : tensor<3x24xf32>
}
