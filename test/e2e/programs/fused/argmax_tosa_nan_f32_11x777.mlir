// The TOSA argmax form (a NaN wins: `cmpf ugt c v and cmpf ord v v`) of floor(2x) with NaN
// where x < -3 (about one a row, none in a third of them): the index is the first NaN's where
// a row has one (torch's order), else the first of the max. Only the index is returned: the
// value is NaN in most rows.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<11x777xf32>) -> tensor<11xi64> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %c0 = arith.constant 0 : i64
  %two = arith.constant 2.0 : f32
  %cut = arith.constant -3.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %ei = tensor.empty() : tensor<11xi64>
  %e = tensor.empty() : tensor<11xf32>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<11xi64>) -> tensor<11xi64>
  %fv = linalg.fill ins(%lowest : f32) outs(%e : tensor<11xf32>) -> tensor<11xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<11x777xf32>) outs(%fi, %fv : tensor<11xi64>, tensor<11xf32>) {
  ^bb0(%a: f32, %i: i64, %v: f32):
    %s = arith.mulf %a, %two : f32
    %fl = math.floor %s : f32
    %big = arith.cmpf olt, %a, %cut : f32
    %c = arith.select %big, %nan, %fl : f32
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i64
    %gt = arith.cmpf ugt, %c, %v : f32
    %num = arith.cmpf ord, %v, %v : f32
    %better = arith.andi %gt, %num : i1
    %nv = arith.select %better, %c, %v : f32
    %ni = arith.select %better, %idxc, %i : i64
    linalg.yield %ni, %nv : i64, f32
  } -> (tensor<11xi64>, tensor<11xf32>)
  return %r#0 : tensor<11xi64>
}
