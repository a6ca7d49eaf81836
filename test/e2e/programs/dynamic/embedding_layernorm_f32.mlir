// BERT's embeddings and their LayerNorm over a dynamic count of tokens (rows of 23, a prime):
// the word embedding at each token id, the position embedding at the position id (a slice of
// the position-id buffer as long as the sequence), and the token-type embedding at the type
// read from its table at the position id, summed and normalized.
#r = affine_map<(d0, d1) -> (d0)>
#x = affine_map<(d0, d1) -> (d0, d1)>
#c = affine_map<(d0, d1) -> (d1)>
func.func @main(%ids: tensor<?xi64>, %words: tensor<53x23xf32>, %positions: tensor<40x23xf32>,
                %kinds: tensor<3x23xf32>, %gamma: tensor<23xf32>, %beta: tensor<23xf32>) -> tensor<?x23xf32> {
  %pos_ids = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]]> : tensor<1x40xi64>
  %type_ids = arith.constant dense<[2, 1, 2, 1, 2, 2, 2, 2, 0, 1, 0, 2, 0, 0, 0, 1, 1, 0, 1, 2, 0, 2, 0, 0, 2, 0, 1, 1, 0, 1, 0, 0, 0, 2, 2, 1, 0, 0, 0, 0]> : tensor<40xi64>
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 23.0 : f32
  %eps = arith.constant 1.0e-12 : f32
  %c0 = arith.constant 0 : index
  %len = tensor.dim %ids, %c0 : tensor<?xi64>
  %pos = tensor.extract_slice %pos_ids[0, 0] [1, %len] [1, 1] : tensor<1x40xi64> to tensor<?xi64>
  %e = tensor.empty(%len) : tensor<?x23xf32>
  %sum = linalg.generic {indexing_maps = [#r, #r, #x], iterator_types = ["parallel", "parallel"]}
      ins(%ids, %pos : tensor<?xi64>, tensor<?xi64>) outs(%e : tensor<?x23xf32>) {
  ^bb0(%id: i64, %p: i64, %o: f32):
    %col = linalg.index 1 : index
    %pi = arith.index_cast %p : i64 to index
    %t = tensor.extract %type_ids[%pi] : tensor<40xi64>
    %ti = arith.index_cast %t : i64 to index
    %k = tensor.extract %kinds[%ti, %col] : tensor<3x23xf32>
    %wi = arith.index_cast %id : i64 to index
    %w = tensor.extract %words[%wi, %col] : tensor<53x23xf32>
    %q = tensor.extract %positions[%pi, %col] : tensor<40x23xf32>
    %a = arith.addf %w, %k : f32
    %b = arith.addf %a, %q : f32
    linalg.yield %b : f32
  } -> tensor<?x23xf32>
  %e1 = tensor.empty(%len) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%sum : tensor<?x23xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %a, %acc : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %centered = linalg.generic {indexing_maps = [#x, #r, #x], iterator_types = ["parallel", "parallel"]}
      ins(%sum, %s : tensor<?x23xf32>, tensor<?xf32>) outs(%e : tensor<?x23xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %m = arith.divf %t, %n : f32
    %v = arith.subf %a, %m : f32
    linalg.yield %v : f32
  } -> tensor<?x23xf32>
  %ss = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%centered : tensor<?x23xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %v = arith.addf %sq, %acc : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %y = linalg.generic {indexing_maps = [#x, #r, #c, #c, #x], iterator_types = ["parallel", "parallel"]}
      ins(%centered, %ss, %gamma, %beta : tensor<?x23xf32>, tensor<?xf32>, tensor<23xf32>, tensor<23xf32>)
      outs(%e : tensor<?x23xf32>) {
  ^bb0(%a: f32, %v: f32, %g: f32, %bb: f32, %o: f32):
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %t = arith.mulf %a, %rs : f32
    %u = arith.mulf %t, %g : f32
    %w = arith.addf %u, %bb : f32
    linalg.yield %w : f32
  } -> tensor<?x23xf32>
  return %y : tensor<?x23xf32>
}
