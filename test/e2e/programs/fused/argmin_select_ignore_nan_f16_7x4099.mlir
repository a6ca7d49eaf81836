// argmin written with selects and a plain `cmpf olt c v` (a NaN element never wins: skipped),
// of floor(2x) in f16 with NaN where x < -2.5, rows of 4099: ties, the first index of the min
// of the numbers wins, the value is that min.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<7x4099xf16>) -> (tensor<7xf16>, tensor<7xi64>) {
  %inf = arith.constant 0x7C00 : f16
  %c0 = arith.constant 0 : i64
  %two = arith.constant 2.0 : f16
  %cut = arith.constant -2.5 : f16
  %nan = arith.constant 0x7E00 : f16
  %e = tensor.empty() : tensor<7xf16>
  %ei = tensor.empty() : tensor<7xi64>
  %fv = linalg.fill ins(%inf : f16) outs(%e : tensor<7xf16>) -> tensor<7xf16>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<7xi64>) -> tensor<7xi64>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<7x4099xf16>) outs(%fv, %fi : tensor<7xf16>, tensor<7xi64>) {
  ^bb0(%a: f16, %v: f16, %i: i64):
    %s = arith.mulf %a, %two : f16
    %fl = math.floor %s : f16
    %small = arith.cmpf olt, %a, %cut : f16
    %c = arith.select %small, %nan, %fl : f16
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i64
    %better = arith.cmpf olt, %c, %v : f16
    %nv = arith.select %better, %c, %v : f16
    %ni = arith.select %better, %idxc, %i : i64
    linalg.yield %nv, %ni : f16, i64
  } -> (tensor<7xf16>, tensor<7xi64>)
  return %r#0, %r#1 : tensor<7xf16>, tensor<7xi64>
}
