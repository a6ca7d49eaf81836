// An f16 softmax computed in f32 under a causal mask of queries 80 keys apart (query i sees keys
// j <= 80 i, the others -inf: row 0 one key, row 12 961): the mask reads the row's position
// (linalg.index 0) and each element's in the row (linalg.index 1).
// Rows of 1032 = 8 x 129: vectors of 8 halves, 129 chunks over the threads (a tail).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<13x1032xf16>) -> tensor<13x1032xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %stride = arith.constant 80 : index
  %e1 = tensor.empty() : tensor<13xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<13xf32>) -> tensor<13xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<13x1032xf16>) outs(%fm : tensor<13xf32>) {
  ^bb0(%a: f16, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %q = arith.muli %i, %stride : index
    %later = arith.cmpi ugt, %j, %q : index
    %af = arith.extf %a : f16 to f32
    %s = arith.select %later, %ninf, %af : f32
    %y = arith.maximumf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<13x1032xf16>, tensor<13xf32>) outs(%fs : tensor<13xf32>) {
  ^bb0(%a: f16, %mm: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %q = arith.muli %i, %stride : index
    %later = arith.cmpi ugt, %j, %q : index
    %af = arith.extf %a : f16 to f32
    %s = arith.select %later, %ninf, %af : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %e2 = tensor.empty() : tensor<13x1032xf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %sum : tensor<13x1032xf16>, tensor<13xf32>, tensor<13xf32>) outs(%e2 : tensor<13x1032xf16>) {
  ^bb0(%a: f16, %mm: f32, %ss: f32, %o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %q = arith.muli %i, %stride : index
    %later = arith.cmpi ugt, %j, %q : index
    %af = arith.extf %a : f16 to f32
    %s = arith.select %later, %ninf, %af : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.divf %ex, %ss : f32
    %h = arith.truncf %y : f32 to f16
    linalg.yield %h : f16
  } -> tensor<13x1032xf16>
  return %r : tensor<13x1032xf16>
}
