// x - sum(x) on i32 rows of 100.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<10x100xi32>) -> tensor<10x100xi32> {
  %zero = arith.constant 0 : i32
  %e1 = tensor.empty() : tensor<10xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e1 : tensor<10xi32>) -> tensor<10xi32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<10x100xi32>) outs(%f : tensor<10xi32>) {
  ^bb0(%a: i32, %o: i32):
    %y = arith.addi %a, %o : i32
    linalg.yield %y : i32
  } -> tensor<10xi32>
  %e2 = tensor.empty() : tensor<10x100xi32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<10x100xi32>, tensor<10xi32>) outs(%e2 : tensor<10x100xi32>) {
  ^bb0(%a: i32, %ss: i32, %o: i32):
    %y = arith.subi %a, %ss : i32
    linalg.yield %y : i32
  } -> tensor<10x100xi32>
  return %r : tensor<10x100xi32>
}
