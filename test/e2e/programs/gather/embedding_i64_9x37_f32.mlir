// An embedding (aten.embedding as torch-mlir lowers it): out[i, j] = table[ids[i], j], rows of a
// prime length (37: vectors of one element), a table of 61 rows.
func.func @main(%table: tensor<61x37xf32>, %ids: tensor<9xi64>) -> tensor<9x37xf32> {
  %e = tensor.empty() : tensor<9x37xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<9xi64>) outs(%e : tensor<9x37xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%i, %j] : tensor<61x37xf32>
    linalg.yield %x : f32
  } -> tensor<9x37xf32>
  return %r : tensor<9x37xf32>
}
