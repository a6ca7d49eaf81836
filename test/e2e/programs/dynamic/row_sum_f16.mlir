// f16 rows of 777 summed in f32, over a dynamic count of rows.
#x = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @main(%in: tensor<?x777xf16>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %in, %c0 : tensor<?x777xf16>
  %e = tensor.empty(%n) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%in : tensor<?x777xf16>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %w = arith.extf %a : f16 to f32
    %v = arith.addf %w, %acc : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
