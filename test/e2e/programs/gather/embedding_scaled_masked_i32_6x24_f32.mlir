// A body that computes with the gathered row and the positions: the row scaled by a per-row
// input and zeroed past column ids[i] (the lanes' positions, not only the table's column), rank 3.
func.func @main(%table: tensor<19x24xf32>, %ids: tensor<2x6xi32>, %scale: tensor<2x6xf32>) -> tensor<2x6x24xf32> {
  %e = tensor.empty() : tensor<2x6x24xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids, %scale : tensor<2x6xi32>, tensor<2x6xf32>) outs(%e : tensor<2x6x24xf32>) {
  ^bb0(%id: i32, %s: f32, %o: f32):
    %i = arith.index_cast %id : i32 to index
    %j = linalg.index 2 : index
    %x = tensor.extract %table[%i, %j] : tensor<19x24xf32>
    %y = arith.mulf %x, %s : f32
    %keep = arith.cmpi ult, %j, %i : index
    %z = arith.select %keep, %y, %zero : f32
    linalg.yield %z : f32
  } -> tensor<2x6x24xf32>
  return %r : tensor<2x6x24xf32>
}
