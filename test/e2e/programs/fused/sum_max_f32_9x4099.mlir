// The sum and the max of rows of 4099 in one generic with two results (two reductions, one pass).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<9x4099xf32>) -> (tensor<9xf32>, tensor<9xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<9xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<9xf32>) -> tensor<9xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<9xf32>) -> tensor<9xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x4099xf32>) outs(%fs, %fm : tensor<9xf32>, tensor<9xf32>) {
  ^bb0(%a: f32, %s: f32, %m: f32):
    %y = arith.addf %a, %s : f32
    %z = arith.maximumf %a, %m : f32
    linalg.yield %y, %z : f32, f32
  } -> (tensor<9xf32>, tensor<9xf32>)
  return %r#0, %r#1 : tensor<9xf32>, tensor<9xf32>
}
