// Softmax as generics on f16 with f32 statistics (the max and the sum of exp(x - max) in f32,
// the output truncated to f16), rows of 4099.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<5x4099xf16>) -> tensor<5x4099xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<5xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<5xf32>) -> tensor<5xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x4099xf16>) outs(%fm : tensor<5xf32>) {
  ^bb0(%a: f16, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %y = arith.maximumf %a32, %o : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<5x4099xf16>, tensor<5xf32>) outs(%fs : tensor<5xf32>) {
  ^bb0(%a: f16, %mm: f32, %o: f32):
    %a32 = arith.extf %a : f16 to f32
    %d = arith.subf %a32, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  %e2 = tensor.empty() : tensor<5x4099xf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : tensor<5x4099xf16>, tensor<5xf32>, tensor<5xf32>) outs(%e2 : tensor<5x4099xf16>) {
  ^bb0(%a: f16, %mm: f32, %ss: f32, %o: f16):
    %a32 = arith.extf %a : f16 to f32
    %d = arith.subf %a32, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.divf %ex, %ss : f32
    %y16 = arith.truncf %y : f32 to f16
    linalg.yield %y16 : f16
  } -> tensor<5x4099xf16>
  return %r : tensor<5x4099xf16>
}
