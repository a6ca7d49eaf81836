// Softmax with a causal mask built from the positions (as PyTorch's eager attention builds it):
// score (h, i, j) is -inf where key j comes after query i (linalg.index of a row dim and of the
// row's dim), in each of the three generics. Rows of 37 (prime: vectors of one element).
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @main(%x: tensor<2x37x37xf32>) -> tensor<2x37x37xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x37xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2x37xf32>) -> tensor<2x37xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x37x37xf32>) outs(%fm : tensor<2x37xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi ugt, %j, %i : index
    %s = arith.select %later, %ninf, %a : f32
    %y = arith.maximumf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x37xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x37xf32>) -> tensor<2x37xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %m : tensor<2x37x37xf32>, tensor<2x37xf32>) outs(%fs : tensor<2x37xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi ugt, %j, %i : index
    %s = arith.select %later, %ninf, %a : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x37xf32>
  %e2 = tensor.empty() : tensor<2x37x37xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m, %sum : tensor<2x37x37xf32>, tensor<2x37xf32>, tensor<2x37xf32>) outs(%e2 : tensor<2x37x37xf32>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi ugt, %j, %i : index
    %s = arith.select %later, %ninf, %a : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.divf %ex, %ss : f32
    linalg.yield %y : f32
  } -> tensor<2x37x37xf32>
  return %r : tensor<2x37x37xf32>
}
