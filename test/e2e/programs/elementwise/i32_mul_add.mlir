func.func @main(%a0: tensor<100x30xi32>, %a1: tensor<100x30xi32>) -> tensor<100x30xi32> {
  %e = tensor.empty() : tensor<100x30xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<100x30xi32>, tensor<100x30xi32>) outs(%e : tensor<100x30xi32>) {
  ^bb0(%x0: i32, %x1: i32, %o: i32):
    %m = arith.muli %x0, %x1 : i32
    %y = arith.addi %m, %x0 : i32
    linalg.yield %y : i32
  } -> tensor<100x30xi32>
  return %r : tensor<100x30xi32>
}
