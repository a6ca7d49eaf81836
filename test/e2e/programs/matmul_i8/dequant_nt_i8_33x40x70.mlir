// Dequantization fused after an i8 x i8 -> i32 matmul (B transposed): the i32 sums converted
// to f32 (arith.sitofp) and scaled per column, f32 out.
func.func @main(%a: tensor<33x70xi8>, %b: tensor<40x70xi8>, %scale: tensor<40xf32>) -> tensor<33x40xf32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<33x40xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<33x40xi32>) -> tensor<33x40xi32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<33x70xi8>, tensor<40x70xi8>) outs(%z : tensor<33x40xi32>) -> tensor<33x40xi32>
  %ef = tensor.empty() : tensor<33x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %scale : tensor<33x40xi32>, tensor<40xf32>) outs(%ef : tensor<33x40xf32>) {
  ^bb0(%x: i32, %s: f32, %o: f32):
    %f = arith.sitofp %x : i32 to f32
    %y = arith.mulf %f, %s : f32
    linalg.yield %y : f32
  } -> tensor<33x40xf32>
  return %r : tensor<33x40xf32>
}
