// argmax as IREE's TOSA input lowers tosa.argmax: both results selected (no maximumf), the
// index result first, `cmpf ugt c v and cmpf ord v v` (a NaN would win), the value starting
// at -FLT_MAX; of floor(2x), rows of 1009 (prime): many ties, the first index of the max wins.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<13x1009xf32>) -> (tensor<13xi32>, tensor<13xf32>) {
  %lowest = arith.constant -3.40282347E+38 : f32
  %c0 = arith.constant 0 : i32
  %two = arith.constant 2.0 : f32
  %ei = tensor.empty() : tensor<13xi32>
  %e = tensor.empty() : tensor<13xf32>
  %fi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<13xi32>) -> tensor<13xi32>
  %fv = linalg.fill ins(%lowest : f32) outs(%e : tensor<13xf32>) -> tensor<13xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<13x1009xf32>) outs(%fi, %fv : tensor<13xi32>, tensor<13xf32>) {
  ^bb0(%a: f32, %i: i32, %v: f32):
    %s = arith.mulf %a, %two : f32
    %c = math.floor %s : f32
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i32
    %gt = arith.cmpf ugt, %c, %v : f32
    %num = arith.cmpf ord, %v, %v : f32
    %better = arith.andi %gt, %num : i1
    %nv = arith.select %better, %c, %v : f32
    %ni = arith.select %better, %idxc, %i : i32
    linalg.yield %ni, %nv : i32, f32
  } -> (tensor<13xi32>, tensor<13xf32>)
  return %r#0, %r#1 : tensor<13xi32>, tensor<13xf32>
}
