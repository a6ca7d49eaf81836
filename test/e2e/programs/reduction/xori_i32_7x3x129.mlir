// Bitwise xor over the middle and inner dims.
func.func @main(%x0: tensor<7x3x129xi32>) -> tensor<7xi32> {
  %cst = arith.constant 0 : i32
  %e = tensor.empty() : tensor<7xi32>
  %f = linalg.fill ins(%cst : i32) outs(%e : tensor<7xi32>) -> tensor<7xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x0 : tensor<7x3x129xi32>) outs(%f : tensor<7xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %s = arith.xori %in0, %out : i32
    linalg.yield %s : i32
  } -> tensor<7xi32>
  return %r : tensor<7xi32>
}
