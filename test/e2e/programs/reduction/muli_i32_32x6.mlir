// i32 products over a short dim.
func.func @main(%x0: tensor<32x6xi32>) -> tensor<32xi32> {
  %cst = arith.constant 1 : i32
  %e = tensor.empty() : tensor<32xi32>
  %f = linalg.fill ins(%cst : i32) outs(%e : tensor<32xi32>) -> tensor<32xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<32x6xi32>) outs(%f : tensor<32xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %s = arith.muli %in0, %out : i32
    linalg.yield %s : i32
  } -> tensor<32xi32>
  return %r : tensor<32xi32>
}
