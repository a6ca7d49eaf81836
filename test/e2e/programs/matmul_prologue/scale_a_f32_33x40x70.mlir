// A scaled by a scalar constant (a * s, f32) before the matmul: IREE 3.13 does not fuse this
// producer into the matmul's dispatch (two dispatches: the scaling, then the matmul).
func.func @main(%a: tensor<33x70xf32>, %b: tensor<70x40xf32>) -> tensor<33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<33x70xf32>
  %as = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<33x70xf32>) outs(%ea : tensor<33x70xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.constant 0.125 : f32
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<33x70xf32>
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%as, %b : tensor<33x70xf32>, tensor<70x40xf32>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  return %mm : tensor<33x40xf32>
}
