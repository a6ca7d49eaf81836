// An i8 matmul accumulated in i32 with a dynamic M, A stored [k, m] (M contiguous, so its
// reads are guarded one element at a time) and B [n, k], plus an i32 bias along N: N and K
// (40, 24) not multiples of the tiles.
func.func @main(%x: tensor<24x?xi8>, %w: tensor<40x24xi8>, %bias: tensor<40xi32>) -> tensor<?x40xi32> {
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c1 : tensor<24x?xi8>
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty(%m) : tensor<?x40xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e0 : tensor<?x40xi32>) -> tensor<?x40xi32>
  %mm = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<24x?xi8>, tensor<40x24xi8>) outs(%acc : tensor<?x40xi32>) {
  ^bb0(%a: i8, %b: i8, %o: i32):
    %ae = arith.extsi %a : i8 to i32
    %be = arith.extsi %b : i8 to i32
    %p = arith.muli %ae, %be : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<?x40xi32>
  %e1 = tensor.empty(%m) : tensor<?x40xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x40xi32>, tensor<40xi32>) outs(%e1 : tensor<?x40xi32>) {
  ^bb0(%v: i32, %z: i32, %oo: i32):
    %r = arith.addi %v, %z : i32
    linalg.yield %r : i32
  } -> tensor<?x40xi32>
  return %y : tensor<?x40xi32>
}
