// From iree-org/iree tests/e2e/regression/softmax.mlir (@softmax_dynamic): the TOSA softmax
// as IREE's TOSA import gives it (max, subtract, exp, sum, reciprocal, multiply over the last
// of three dims), every extent dynamic; the constant input is an argument here.
#x = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#r = affine_map<(d0, d1, d2) -> (d0, d1)>
#x2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%in: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %in, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %in, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %in, %c2 : tensor<?x?x?xf32>
  %e2 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %m0 = linalg.fill ins(%lowest : f32) outs(%e2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %max = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in : tensor<?x?x?xf32>) outs(%m0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %m: f32):
    %v = arith.maximumf %a, %m : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %e3 = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32>
  %sub = linalg.generic {indexing_maps = [#x, #r, #x], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%in, %max : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%e3 : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %v = arith.subf %a, %m : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?xf32>
  %exp = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<?x?x?xf32>) outs(%e3 : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<?x?x?xf32>) outs(%s0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %s: f32):
    %v = arith.addf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %rec = linalg.generic {indexing_maps = [#x2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%s: f32, %o: f32):
    %v = arith.divf %one, %s : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [#x, #r, #x], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %rec : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%e3 : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %v = arith.mulf %a, %r : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
