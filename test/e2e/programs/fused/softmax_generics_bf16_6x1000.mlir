// Softmax as generics on bf16 with f32 statistics (the max and the sum of exp(x - max) in f32,
// the output truncated to bf16), rows of 1000.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<6x1000xbf16>) -> tensor<6x1000xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<6xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<6xf32>) -> tensor<6xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x1000xbf16>) outs(%fm : tensor<6xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %a32 = arith.extf %a : bf16 to f32
    %y = arith.maximumf %a32, %o : f32
    linalg.yield %y : f32
  } -> tensor<6xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<6xf32>) -> tensor<6xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<6x1000xbf16>, tensor<6xf32>) outs(%fs : tensor<6xf32>) {
  ^bb0(%a: bf16, %mm: f32, %o: f32):
    %a32 = arith.extf %a : bf16 to f32
    %d = arith.subf %a32, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<6xf32>
  %e2 = tensor.empty() : tensor<6x1000xbf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<6x1000xbf16>, tensor<6xf32>, tensor<6xf32>) outs(%e2 : tensor<6x1000xbf16>) {
  ^bb0(%a: bf16, %mm: f32, %ss: f32, %o: bf16):
    %a32 = arith.extf %a : bf16 to f32
    %d = arith.subf %a32, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.divf %ex, %ss : f32
    %y16 = arith.truncf %y : f32 to bf16
    linalg.yield %y16 : bf16
  } -> tensor<6x1000xbf16>
  return %r : tensor<6x1000xbf16>
}
