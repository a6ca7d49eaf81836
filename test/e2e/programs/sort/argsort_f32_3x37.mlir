// torch.sort(x, dim=1) of 3 rows of 37 (not a power of two: 64 slots, 27 past the row) with
// the indices that move with the keys, both stored; ascending by `ole`, as the export writes it.
func.func @main(%x: tensor<3x37xf32>, %i: tensor<3x37xi64>) -> (tensor<3x37xf32>, tensor<3x37xi64>) {
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%x, %i : tensor<3x37xf32>, tensor<3x37xi64>) {
  ^bb0(%a: f32, %b: f32, %c: i64, %d: i64):
    %lt = arith.cmpf ole, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<3x37xf32>, tensor<3x37xi64>
  return %r#0, %r#1 : tensor<3x37xf32>, tensor<3x37xi64>
}
