// From iree-org/iree tests/e2e/regression/linalg_quantized_matmul_vs_linalg_matmul.mlir
// (@quantized_matmul_as_matmul_3x4x5): an i8 x i8 -> i32 matmul, the row sums of the LHS
// and the column sums of the RHS, and the zero-point correction of
// linalg.quantized_matmul combining them; here at 37x64x53, zero points -3 and 5.
#x = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
#c = affine_map<(d0, d1) -> (d1)>
#s = affine_map<(d0, d1) -> ()>
func.func @main(%lhs: tensor<37x64xi8>, %rhs: tensor<64x53xi8>) -> tensor<37x53xi32> {
  %c0 = arith.constant 0 : i32
  %lhs_zp = arith.constant -3 : i32
  %rhs_zp = arith.constant 5 : i32
  %k = arith.constant 64 : i32
  %eacc = tensor.empty() : tensor<37x53xi32>
  %zacc = linalg.fill ins(%c0 : i32) outs(%eacc : tensor<37x53xi32>) -> tensor<37x53xi32>
  %mm = linalg.matmul ins(%lhs, %rhs : tensor<37x64xi8>, tensor<64x53xi8>) outs(%zacc : tensor<37x53xi32>) -> tensor<37x53xi32>
  %lhs32 = arith.extsi %lhs : tensor<37x64xi8> to tensor<37x64xi32>
  %el = tensor.empty() : tensor<37xi32>
  %zl = linalg.fill ins(%c0 : i32) outs(%el : tensor<37xi32>) -> tensor<37xi32>
  %lsum = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%lhs32 : tensor<37x64xi32>) outs(%zl : tensor<37xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %v = arith.addi %a, %acc : i32
    linalg.yield %v : i32
  } -> tensor<37xi32>
  %rhs32 = arith.extsi %rhs : tensor<64x53xi8> to tensor<64x53xi32>
  %er = tensor.empty() : tensor<53xi32>
  %zr = linalg.fill ins(%c0 : i32) outs(%er : tensor<53xi32>) -> tensor<53xi32>
  %rsum = linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel"]}
      ins(%rhs32 : tensor<64x53xi32>) outs(%zr : tensor<53xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %v = arith.addi %a, %acc : i32
    linalg.yield %v : i32
  } -> tensor<53xi32>
  %y = linalg.generic {indexing_maps = [#x, #r, #c, #s, #s, #s, #x], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %lsum, %rsum, %lhs_zp, %rhs_zp, %k : tensor<37x53xi32>, tensor<37xi32>, tensor<53xi32>, i32, i32, i32)
      outs(%eacc : tensor<37x53xi32>) {
  ^bb0(%m: i32, %ls: i32, %rs: i32, %lz: i32, %rz: i32, %kk: i32, %o: i32):
    %t1 = arith.muli %ls, %rz : i32
    %t2 = arith.muli %rs, %lz : i32
    %lin = arith.addi %t1, %t2 : i32
    %zz = arith.muli %lz, %rz : i32
    %quad = arith.muli %kk, %zz : i32
    %c1 = arith.subi %m, %lin : i32
    %v = arith.addi %c1, %quad : i32
    linalg.yield %v : i32
  } -> tensor<37x53xi32>
  return %y : tensor<37x53xi32>
}
