// Requantization to i8 fused after an i8 x i8 -> i32 matmul (as a quantized linear layer's
// output): the i32 sums to f32, times a per-column scale (the loaded one times 2^-10, so that
// unit-normal scales put the outputs across the i8 range and past it), rounded half to even,
// plus a zero point, clamped to [-128, 127] with maximumf / minimumf, converted to i8.
func.func @main(%a: tensor<37x71xi8>, %b: tensor<71x45xi8>, %scale: tensor<45xf32>) -> tensor<37x45xi8> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<37x45xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<37x45xi32>) -> tensor<37x45xi32>
  %mm = linalg.matmul ins(%a, %b : tensor<37x71xi8>, tensor<71x45xi8>) outs(%z : tensor<37x45xi32>) -> tensor<37x45xi32>
  %eq = tensor.empty() : tensor<37x45xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %scale : tensor<37x45xi32>, tensor<45xf32>) outs(%eq : tensor<37x45xi8>) {
  ^bb0(%x: i32, %s: f32, %o: i8):
    %unit = arith.constant 9.765625E-4 : f32
    %zp = arith.constant 3.0 : f32
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %f = arith.sitofp %x : i32 to f32
    %sc = arith.mulf %s, %unit : f32
    %y = arith.mulf %f, %sc : f32
    %n = math.roundeven %y : f32
    %w = arith.addf %n, %zp : f32
    %cl = arith.maximumf %w, %lo : f32
    %ch = arith.minimumf %cl, %hi : f32
    %q = arith.fptosi %ch : f32 to i8
    linalg.yield %q : i8
  } -> tensor<37x45xi8>
  return %r : tensor<37x45xi8>
}
