// i64 products past 32 bits ((a * b)^2 up to 1e12 on inputs of +-1000): a kernel that kept
// 32 bits, or an emulation that lost the high word, differs from llvm-cpu.
func.func @main(%a0: tensor<37x64xi64>, %a1: tensor<37x64xi64>) -> tensor<37x64xi64> {
  %e = tensor.empty() : tensor<37x64xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : tensor<37x64xi64>, tensor<37x64xi64>) outs(%e : tensor<37x64xi64>) {
  ^bb0(%x0: i64, %x1: i64, %o: i64):
    %m = arith.muli %x0, %x1 : i64
    %y = arith.muli %m, %m : i64
    %z = arith.subi %y, %x0 : i64
    linalg.yield %z : i64
  } -> tensor<37x64xi64>
  return %r : tensor<37x64xi64>
}
