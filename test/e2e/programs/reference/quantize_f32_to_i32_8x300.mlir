// Rows of f32 summed, scaled and converted to integers (arith.fptosi): not promoted to f64
// (a more precise sum can round to another integer); the reference is the program as written.
func.func @main(%x: tensor<8x300xf32>) -> (tensor<8xi32>, tensor<8xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x300xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %ei = tensor.empty() : tensor<8xi32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%ei : tensor<8xi32>) {
  ^bb0(%a: f32, %o: i32):
    %k = arith.constant 0.5 : f32
    %m = arith.mulf %a, %k : f32
    %i = arith.fptosi %m : f32 to i32
    linalg.yield %i : i32
  } -> tensor<8xi32>
  return %q, %s : tensor<8xi32>, tensor<8xf32>
}
