// Softmax over rows of f16, computed in f32 and rounded back to f16 (arith.truncf): the
// rounding the program asks for is kept by the f64 reference.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<24x1000xf16>) -> tensor<24x1000xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<24xf32>) -> tensor<24xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<24x1000xf16>) outs(%m0 : tensor<24xf32>) {
  ^bb0(%a: f16, %m: f32):
    %w = arith.extf %a : f16 to f32
    %r = arith.maximumf %w, %m : f32
    linalg.yield %r : f32
  } -> tensor<24xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<24xf32>) -> tensor<24xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<24x1000xf16>, tensor<24xf32>) outs(%s0 : tensor<24xf32>) {
  ^bb0(%a: f16, %m: f32, %s: f32):
    %w = arith.extf %a : f16 to f32
    %d = arith.subf %w, %m : f32
    %p = math.exp %d : f32
    %r = arith.addf %p, %s : f32
    linalg.yield %r : f32
  } -> tensor<24xf32>
  %o = tensor.empty() : tensor<24x1000xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<24x1000xf16>, tensor<24xf32>, tensor<24xf32>) outs(%o : tensor<24x1000xf16>) {
  ^bb0(%a: f16, %m: f32, %s: f32, %out: f16):
    %w = arith.extf %a : f16 to f32
    %d = arith.subf %w, %m : f32
    %p = math.exp %d : f32
    %q = arith.divf %p, %s : f32
    %t = arith.truncf %q : f32 to f16
    linalg.yield %t : f16
  } -> tensor<24x1000xf16>
  return %y : tensor<24x1000xf16>
}
