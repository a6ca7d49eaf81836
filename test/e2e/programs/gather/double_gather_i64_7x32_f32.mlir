// Eager BERT's token types: out[i, j] = table[types[pos[i]], j], the row index read from a table
// at a position read from another (i64, as torch exports ids); 128-bit rows of f32.
func.func @main(%pos: tensor<7xi64>, %types: tensor<32xi64>, %table: tensor<2x32xf32>) -> tensor<7x32xf32> {
  %e = tensor.empty() : tensor<7x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%pos : tensor<7xi64>) outs(%e : tensor<7x32xf32>) {
  ^bb0(%p: i64, %o: f32):
    %i = arith.index_cast %p : i64 to index
    %t = tensor.extract %types[%i] : tensor<32xi64>
    %k = arith.index_cast %t : i64 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%k, %j] : tensor<2x32xf32>
    linalg.yield %x : f32
  } -> tensor<7x32xf32>
  return %r : tensor<7x32xf32>
}
