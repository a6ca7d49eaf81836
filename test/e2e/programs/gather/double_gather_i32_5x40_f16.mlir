// The double gather with i32 ids and f16 rows of 40 (vectors of 8 halves where 128 bits fit, 4 on
// SPIR-V), a table of 3 rows.
func.func @main(%pos: tensor<5xi32>, %types: tensor<11xi32>, %table: tensor<3x40xf16>) -> tensor<5x40xf16> {
  %e = tensor.empty() : tensor<5x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%pos : tensor<5xi32>) outs(%e : tensor<5x40xf16>) {
  ^bb0(%p: i32, %o: f16):
    %i = arith.index_cast %p : i32 to index
    %t = tensor.extract %types[%i] : tensor<11xi32>
    %k = arith.index_cast %t : i32 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%k, %j] : tensor<3x40xf16>
    linalg.yield %x : f16
  } -> tensor<5x40xf16>
  return %r : tensor<5x40xf16>
}
