// The softmax dispatch of transformers' BertModel (attn_implementation="eager", f32, one layer,
// 2 heads, 7 tokens) as iree-turbine exports it and IREE forms it: the scores scaled by 1/4 plus
// the extended attention mask, which the export builds from the query's position
// (linalg.index 1, cast to i64 and compared with 0; every position is kept here: no padding
// mask was given), in each generic.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @main(%x: tensor<2x7x7xf32>) -> tensor<2x7x7xf32> {
  %nan = arith.constant 0xFFC00000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i64
  %quarter = arith.constant 2.500000e-01 : f32
  %zero_m = arith.constant 0.000000e+00 : f32
  %floor = arith.constant -3.40282347E+38 : f32
  %e1 = tensor.empty() : tensor<2x7xf32>
  %fm = linalg.fill ins(%nan : f32) outs(%e1 : tensor<2x7xf32>) -> tensor<2x7xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x7x7xf32>) outs(%fm : tensor<2x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %keep = arith.cmpi sge, %i64, %c0 : i64
    %bias = arith.select %keep, %zero_m, %floor : f32
    %sc = arith.mulf %a, %quarter : f32
    %s = arith.addf %sc, %bias : f32
    %y = arith.maxnumf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x7xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x7xf32>) -> tensor<2x7xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %m : tensor<2x7x7xf32>, tensor<2x7xf32>) outs(%fs : tensor<2x7xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %i = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %keep = arith.cmpi sge, %i64, %c0 : i64
    %bias = arith.select %keep, %zero_m, %floor : f32
    %sc = arith.mulf %a, %quarter : f32
    %s = arith.addf %sc, %bias : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x7xf32>
  %e2 = tensor.empty() : tensor<2x7x7xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m, %sum : tensor<2x7x7xf32>, tensor<2x7xf32>, tensor<2x7xf32>) outs(%e2 : tensor<2x7x7xf32>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %o: f32):
    %i = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %keep = arith.cmpi sge, %i64, %c0 : i64
    %bias = arith.select %keep, %zero_m, %floor : f32
    %sc = arith.mulf %a, %quarter : f32
    %s = arith.addf %sc, %bias : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.divf %ex, %ss : f32
    linalg.yield %y : f32
  } -> tensor<2x7x7xf32>
  return %r : tensor<2x7x7xf32>
}
