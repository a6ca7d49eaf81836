// NN bf16 + bias, rounded to bf16: M = 129 leaves a last row of tiles one row high.
func.func @main(%a: tensor<129x200xbf16>, %b: tensor<200x640xbf16>, %bias: tensor<640xbf16>) -> tensor<129x640xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<129x640xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<129x640xf32>) -> tensor<129x640xf32>
  %c = linalg.matmul ins(%a, %b : tensor<129x200xbf16>, tensor<200x640xbf16>) outs(%f : tensor<129x640xf32>) -> tensor<129x640xf32>
  %e16 = tensor.empty() : tensor<129x640xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<129x640xf32>, tensor<640xbf16>) outs(%e16 : tensor<129x640xbf16>) {
  ^bb0(%x: f32, %bb: bf16, %o: bf16):
    %bf = arith.extf %bb : bf16 to f32
    %s = arith.addf %x, %bf : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<129x640xbf16>
  return %y : tensor<129x640xbf16>
}
