// One row: an embedding of a single id, f16 rows of 64, a table of 13 rows (a prime count).
func.func @main(%table: tensor<13x64xf16>, %ids: tensor<1xi32>) -> tensor<1x64xf16> {
  %e = tensor.empty() : tensor<1x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<1xi32>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%id: i32, %o: f16):
    %i = arith.index_cast %id : i32 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%i, %j] : tensor<13x64xf16>
    linalg.yield %x : f16
  } -> tensor<1x64xf16>
  return %r : tensor<1x64xf16>
}
