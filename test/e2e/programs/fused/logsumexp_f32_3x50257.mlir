// logsumexp over rows of 50257 (prime: no split divides it; GPT-2 vocabulary) (f32 in, f32 out): the max, the sum of exp(x - max), log(sum) + max.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#r1 = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<3x50257xf32>) -> tensor<3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<3xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x50257xf32>) outs(%fm : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<3x50257xf32>, tensor<3xf32>) outs(%fs : tensor<3xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#r1, #r1, #r1], iterator_types = ["parallel"]}
      ins(%s, %m : tensor<3xf32>, tensor<3xf32>) outs(%e1 : tensor<3xf32>) {
  ^bb0(%ss: f32, %mm: f32, %o: f32):
    %l = math.log %ss : f32
    %y = arith.addf %l, %mm : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
