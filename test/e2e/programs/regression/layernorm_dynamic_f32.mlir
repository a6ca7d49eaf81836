// From iree-org/iree tests/e2e/regression/layernorm.mlir (@layernorm_dynamic): the TOSA
// LayerNorm (gamma 1, beta 0) as IREE's TOSA import gives it, rows and row length dynamic.
// Its constants are arguments here: %x, the row length as a value (%n, one a row) and
// epsilon (%eps, one a row).
#x = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<?x?xf32>, %n: tensor<?x1xf32>, %eps: tensor<?x1xf32>) -> tensor<?x?xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e1 = tensor.empty(%rows) : tensor<?xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%s0 : tensor<?xf32>) {
  ^bb0(%a: f32, %s: f32):
    %v = arith.addf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %en = tensor.empty(%rows) : tensor<?x1xf32>
  %rn = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<?x1xf32>) outs(%en : tensor<?x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.divf %one, %a : f32
    linalg.yield %v : f32
  } -> tensor<?x1xf32>
  %rn1 = tensor.collapse_shape %rn [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  %e2 = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %centered = linalg.generic {indexing_maps = [#x, #r, #r, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %rn1 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %s: f32, %r: f32, %o: f32):
    %mean = arith.mulf %s, %r : f32
    %v = arith.subf %a, %mean : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %q0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sq = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%centered : tensor<?x?xf32>) outs(%q0 : tensor<?xf32>) {
  ^bb0(%a: f32, %s: f32):
    %p = arith.mulf %a, %a : f32
    %v = arith.addf %p, %s : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %eps1 = tensor.collapse_shape %eps [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  %y = linalg.generic {indexing_maps = [#x, #r, #r, #r, #x], iterator_types = ["parallel", "parallel"]}
      ins(%centered, %sq, %rn1, %eps1 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %q: f32, %r: f32, %e: f32, %o: f32):
    %var = arith.mulf %q, %r : f32
    %ve = arith.addf %var, %e : f32
    %rs = math.rsqrt %ve : f32
    %v = arith.mulf %a, %rs : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
