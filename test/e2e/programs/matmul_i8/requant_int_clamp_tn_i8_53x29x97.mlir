// Requantization to i8 after a TN i8 matmul (A read down its columns), clamped in integers as
// torch-mlir writes a quantize: the i32 sums to f32, times a per-row scale (the loaded one
// times 2^-10), rounded half to even, to i32, plus the zero point -5 (arith.addi), clamped
// with maxsi / minsi to [-128, 127] and truncated to i8.
func.func @main(%a: tensor<97x53xi8>, %b: tensor<97x29xi8>, %scale: tensor<53xf32>) -> tensor<53x29xi8> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<53x29xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<53x29xi32>) -> tensor<53x29xi32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<97x53xi8>, tensor<97x29xi8>) outs(%z : tensor<53x29xi32>) -> tensor<53x29xi32>
  %eq = tensor.empty() : tensor<53x29xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %scale : tensor<53x29xi32>, tensor<53xf32>) outs(%eq : tensor<53x29xi8>) {
  ^bb0(%x: i32, %s: f32, %o: i8):
    %unit = arith.constant 9.765625E-4 : f32
    %zp = arith.constant -5 : i32
    %lo = arith.constant -128 : i32
    %hi = arith.constant 127 : i32
    %f = arith.sitofp %x : i32 to f32
    %sc = arith.mulf %s, %unit : f32
    %y = arith.mulf %f, %sc : f32
    %n = math.roundeven %y : f32
    %i = arith.fptosi %n : f32 to i32
    %w = arith.addi %i, %zp : i32
    %cl = arith.maxsi %w, %lo : i32
    %ch = arith.minsi %cl, %hi : i32
    %q = arith.trunci %ch : i32 to i8
    linalg.yield %q : i8
  } -> tensor<53x29xi8>
  return %r : tensor<53x29xi8>
}
