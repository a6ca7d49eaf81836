// RMSNorm of f16 rows, rows and row length dynamic, computed in f32 with a weight per column.
#x = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
#c = affine_map<(d0, d1) -> (d1)>
func.func @main(%x: tensor<?x?xf16>, %w: tensor<?xf16>) -> tensor<?x?xf16> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf16>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf16>
  %colsi = arith.index_cast %cols : index to i64
  %n = arith.sitofp %colsi : i64 to f32
  %e1 = tensor.empty(%rows) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %ss = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf16>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %w32 = arith.extf %a : f16 to f32
    %sq = arith.mulf %w32, %w32 : f32
    %v = arith.addf %sq, %acc : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%rows, %cols) : tensor<?x?xf16>
  %y = linalg.generic {indexing_maps = [#x, #r, #c, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<?x?xf16>, tensor<?xf32>, tensor<?xf16>) outs(%e2 : tensor<?x?xf16>) {
  ^bb0(%a: f16, %s: f32, %g: f16, %o: f16):
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %rs = math.rsqrt %me : f32
    %a32 = arith.extf %a : f16 to f32
    %g32 = arith.extf %g : f16 to f32
    %t = arith.mulf %a32, %rs : f32
    %u = arith.mulf %t, %g32 : f32
    %v = arith.truncf %u : f32 to f16
    linalg.yield %v : f16
  } -> tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}
