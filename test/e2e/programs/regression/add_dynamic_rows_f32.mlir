// From iree-org/iree tests/e2e/regression/stablehlo/dynamic_add.mlir: stablehlo.add of two
// tensor<?x4xf32>, written here as the linalg.generic IREE's StableHLO import makes of it.
#x = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%d0) : tensor<?x4xf32>
  %y = linalg.generic {indexing_maps = [#x, #x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x4xf32>, tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %v = arith.addf %x, %z : f32
    linalg.yield %v : f32
  } -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
