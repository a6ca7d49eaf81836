// Softmax as generics on f32 (as torch and ONNX importers write it), rows of 7. On lavapipe IREE
// makes two dispatches: the max alone, then the sum of exp(x - max) and the divide, which
// reads the max as a loaded row tensor.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<9x7xf32>) -> tensor<9x7xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<9xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<9xf32>) -> tensor<9xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x7xf32>) outs(%fm : tensor<9xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<9xf32>) -> tensor<9xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<9x7xf32>, tensor<9xf32>) outs(%fs : tensor<9xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<9xf32>
  %e2 = tensor.empty() : tensor<9x7xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<9x7xf32>, tensor<9xf32>, tensor<9xf32>) outs(%e2 : tensor<9x7xf32>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.divf %ex, %ss : f32
    linalg.yield %y : f32
  } -> tensor<9x7xf32>
  return %r : tensor<9x7xf32>
}
