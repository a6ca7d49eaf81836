// y = exp(x - max(x)) over rows of 4099: a reduction and a consumer that reads the row again.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<5x4099xf32>) -> tensor<5x4099xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<5xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<5xf32>) -> tensor<5xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x4099xf32>) outs(%fm : tensor<5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  %e2 = tensor.empty() : tensor<5x4099xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<5x4099xf32>, tensor<5xf32>) outs(%e2 : tensor<5x4099xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<5x4099xf32>
  return %r : tensor<5x4099xf32>
}
