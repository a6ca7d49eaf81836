// iree_linalg_ext.arg_compare (IREE 3.13's torch input lowers torch.argmax to it) of floor(2x)
// computed by a fused elementwise producer, rows of 1031 (prime), the i32 index offset by an
// index_base of 100: ties, the first index of the max wins.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<12x1031xf32>) -> (tensor<12xf32>, tensor<12xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %base = arith.constant 100 : index
  %ef = tensor.empty() : tensor<12x1031xf32>
  %fl = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<12x1031xf32>) outs(%ef : tensor<12x1031xf32>) {
  ^bb0(%a: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %s = arith.mulf %a, %two : f32
    %f = math.floor %s : f32
    linalg.yield %f : f32
  } -> tensor<12x1031xf32>
  %e = tensor.empty() : tensor<12xf32>
  %ei = tensor.empty() : tensor<12xi32>
  %fv = linalg.fill ins(%ninf : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %fi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<12xi32>) -> tensor<12xi32>
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%fl : tensor<12x1031xf32>)
      outs(%fv, %fi : tensor<12xf32>, tensor<12xi32>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<12xf32>, tensor<12xi32>
  return %r#0, %r#1 : tensor<12xf32>, tensor<12xi32>
}
