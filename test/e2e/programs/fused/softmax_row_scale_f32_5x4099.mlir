// A softmax whose scores are scaled per row from the row's position alone (linalg.index 0,
// cast to i64 and compared as PyTorch's exports do): rows 0 and 1 by 1, row i >= 2 by
// (i + 1) / 2. Rows of 4099 (prime: vectors of one element).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<5x4099xf32>) -> tensor<5x4099xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %e1 = tensor.empty() : tensor<5xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<5xf32>) -> tensor<5xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x4099xf32>) outs(%fm : tensor<5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %first = arith.cmpi slt, %i64, %c2 : i64
    %next = arith.addi %i64, %c1 : i64
    %n = arith.sitofp %next : i64 to f32
    %h = arith.mulf %n, %half : f32
    %scale = arith.select %first, %one, %h : f32
    %s = arith.mulf %a, %scale : f32
    %y = arith.maximumf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<5xf32>) -> tensor<5xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<5x4099xf32>, tensor<5xf32>) outs(%fs : tensor<5xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %first = arith.cmpi slt, %i64, %c2 : i64
    %next = arith.addi %i64, %c1 : i64
    %n = arith.sitofp %next : i64 to f32
    %h = arith.mulf %n, %half : f32
    %scale = arith.select %first, %one, %h : f32
    %s = arith.mulf %a, %scale : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<5xf32>
  %e2 = tensor.empty() : tensor<5x4099xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %sum : tensor<5x4099xf32>, tensor<5xf32>, tensor<5xf32>) outs(%e2 : tensor<5x4099xf32>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %o: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %first = arith.cmpi slt, %i64, %c2 : i64
    %next = arith.addi %i64, %c1 : i64
    %n = arith.sitofp %next : i64 to f32
    %h = arith.mulf %n, %half : f32
    %scale = arith.select %first, %one, %h : f32
    %s = arith.mulf %a, %scale : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.divf %ex, %ss : f32
    linalg.yield %y : f32
  } -> tensor<5x4099xf32>
  return %r : tensor<5x4099xf32>
}
