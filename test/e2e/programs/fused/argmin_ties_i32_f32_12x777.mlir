// argmin (i32 index) of floor(4x), rows of 777: ties, the first index of the min wins.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<12x777xf32>) -> (tensor<12xf32>, tensor<12xi32>) {
  %init = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i32
  %four = arith.constant 4.0 : f32
  %cut = arith.constant 2.5 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %e = tensor.empty() : tensor<12xf32>
  %ei = tensor.empty() : tensor<12xi32>
  %fv = linalg.fill ins(%init : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %fi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<12xi32>) -> tensor<12xi32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<12x777xf32>) outs(%fv, %fi : tensor<12xf32>, tensor<12xi32>) {
  ^bb0(%a: f32, %v: f32, %i: i32):
    %s = arith.mulf %a, %four : f32
    %c = math.floor %s : f32
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i32
    %m = arith.minimumf %c, %v : f32
    %better = arith.cmpf olt, %c, %v : f32
    %ni = arith.select %better, %idxc, %i : i32
    linalg.yield %m, %ni : f32, i32
  } -> (tensor<12xf32>, tensor<12xi32>)
  return %r#0, %r#1 : tensor<12xf32>, tensor<12xi32>
}
