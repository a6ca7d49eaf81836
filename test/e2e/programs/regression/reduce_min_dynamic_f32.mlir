// From iree-org/iree tests/e2e/regression/stablehlo/dynamic_reduce_min.mlir: the minimum of
// every element of a tensor<?x?xf32> (a stablehlo.reduce over both dims, from +inf),
// written here as the linalg.generic IREE's StableHLO import makes of it.
#x = affine_map<(d0, d1) -> (d0, d1)>
#s = affine_map<(d0, d1) -> ()>
func.func @main(%in: tensor<?x?xf32>) -> tensor<f32> {
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%inf : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %y = linalg.generic {indexing_maps = [#x, #s], iterator_types = ["reduction", "reduction"]}
      ins(%in : tensor<?x?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %m: f32):
    %v = arith.minimumf %a, %m : f32
    linalg.yield %v : f32
  } -> tensor<f32>
  return %y : tensor<f32>
}
