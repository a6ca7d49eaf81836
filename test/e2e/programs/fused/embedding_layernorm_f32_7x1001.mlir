// An embedding lookup fused with its LayerNorm, as IREE forms BERT's embeddings from a torch
// export: word embeddings gathered by token id (i64) plus position embeddings, then the
// LayerNorm of the sum (f32). 7 rows of 1001 (vectors of one element) from a
// table of 37 rows.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @main(%ids: tensor<7xi64>, %table: tensor<37x1001xf32>, %pos: tensor<7x1001xf32>,
                %gamma: tensor<1001xf32>, %beta: tensor<1001xf32>) -> tensor<7x1001xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1001.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e1 = tensor.empty() : tensor<7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<7xf32>) -> tensor<7xf32>
  %e2 = tensor.empty() : tensor<7x1001xf32>
  %emb = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids, %pos : tensor<7xi64>, tensor<7x1001xf32>) outs(%e2 : tensor<7x1001xf32>) {
  ^bb0(%i: i64, %p: f32, %o: f32):
    %c = linalg.index 1 : index
    %r = arith.index_cast %i : i64 to index
    %w = tensor.extract %table[%r, %c] : tensor<37x1001xf32>
    %y = arith.addf %w, %p : f32
    linalg.yield %y : f32
  } -> tensor<7x1001xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%emb : tensor<7x1001xf32>) outs(%f : tensor<7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<7xf32>
  %centered = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%emb, %sum : tensor<7x1001xf32>, tensor<7xf32>) outs(%e2 : tensor<7x1001xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %y = arith.subf %a, %m : f32
    linalg.yield %y : f32
  } -> tensor<7x1001xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%centered : tensor<7x1001xf32>) outs(%f : tensor<7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d2 = arith.mulf %a, %a : f32
    %y = arith.addf %d2, %o : f32
    linalg.yield %y : f32
  } -> tensor<7xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%centered, %sq, %gamma, %beta : tensor<7x1001xf32>, tensor<7xf32>, tensor<1001xf32>, tensor<1001xf32>)
      outs(%e2 : tensor<7x1001xf32>) {
  ^bb0(%a: f32, %s: f32, %g: f32, %b: f32, %o: f32):
    %v = arith.divf %s, %n : f32
    %ve = arith.addf %v, %eps : f32
    %rs = math.rsqrt %ve : f32
    %y0 = arith.mulf %a, %rs : f32
    %y1 = arith.mulf %y0, %g : f32
    %y = arith.addf %y1, %b : f32
    linalg.yield %y : f32
  } -> tensor<7x1001xf32>
  return %r : tensor<7x1001xf32>
}
