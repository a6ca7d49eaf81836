// An embedding lookup fused with its LayerNorm, as IREE forms BERT's embeddings from a torch
// export: word embeddings gathered by token id (i64) plus position embeddings, then the
// LayerNorm of the sum (f16 statistics, as the export computes them). 13 rows of 768 from a
// table of 61 rows.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @main(%ids: tensor<13xi64>, %table: tensor<61x768xf16>, %pos: tensor<13x768xf16>,
                %gamma: tensor<768xf16>, %beta: tensor<768xf16>) -> tensor<13x768xf16> {
  %zero = arith.constant 0.0 : f16
  %n = arith.constant 768.0 : f16
  %eps = arith.constant 1.0e-05 : f16
  %e1 = tensor.empty() : tensor<13xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e1 : tensor<13xf16>) -> tensor<13xf16>
  %e2 = tensor.empty() : tensor<13x768xf16>
  %emb = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids, %pos : tensor<13xi64>, tensor<13x768xf16>) outs(%e2 : tensor<13x768xf16>) {
  ^bb0(%i: i64, %p: f16, %o: f16):
    %c = linalg.index 1 : index
    %r = arith.index_cast %i : i64 to index
    %w = tensor.extract %table[%r, %c] : tensor<61x768xf16>
    %y = arith.addf %w, %p : f16
    linalg.yield %y : f16
  } -> tensor<13x768xf16>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%emb : tensor<13x768xf16>) outs(%f : tensor<13xf16>) {
  ^bb0(%a: f16, %o: f16):
    %y = arith.addf %a, %o : f16
    linalg.yield %y : f16
  } -> tensor<13xf16>
  %centered = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%emb, %sum : tensor<13x768xf16>, tensor<13xf16>) outs(%e2 : tensor<13x768xf16>) {
  ^bb0(%a: f16, %s: f16, %o: f16):
    %m = arith.divf %s, %n : f16
    %y = arith.subf %a, %m : f16
    linalg.yield %y : f16
  } -> tensor<13x768xf16>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%centered : tensor<13x768xf16>) outs(%f : tensor<13xf16>) {
  ^bb0(%a: f16, %o: f16):
    %d2 = arith.mulf %a, %a : f16
    %y = arith.addf %d2, %o : f16
    linalg.yield %y : f16
  } -> tensor<13xf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%centered, %sq, %gamma, %beta : tensor<13x768xf16>, tensor<13xf16>, tensor<768xf16>, tensor<768xf16>)
      outs(%e2 : tensor<13x768xf16>) {
  ^bb0(%a: f16, %s: f16, %g: f16, %b: f16, %o: f16):
    %v = arith.divf %s, %n : f16
    %ve = arith.addf %v, %eps : f16
    %rs = math.rsqrt %ve : f16
    %y0 = arith.mulf %a, %rs : f16
    %y1 = arith.mulf %y0, %g : f16
    %y = arith.addf %y1, %b : f16
    linalg.yield %y : f16
  } -> tensor<13x768xf16>
  return %r : tensor<13x768xf16>
}
