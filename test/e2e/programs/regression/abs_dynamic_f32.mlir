// From iree-org/iree tests/e2e/regression/stablehlo/dynamic_abs.mlir: stablehlo.abs of a
// tensor<?x?xf32>, written here as the linalg.generic IREE's StableHLO import makes of it.
#x = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%in: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %in, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %in, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%in : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.absf %a : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
