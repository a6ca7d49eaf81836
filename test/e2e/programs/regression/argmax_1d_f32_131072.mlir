// From iree-org/iree tests/e2e/linalg/argmax.mlir (@argmax_1d): the max and its first index
// over 131072 elements, the index chosen by cmpf ogt + select and the value by maximumf; the
// input (7.0 with one 53.0) is an argument here.
func.func @main(%in: tensor<131072xf32>) -> (tensor<f32>, tensor<i32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %c0_i32 = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<f32>
  %ei = tensor.empty() : tensor<i32>
  %v0 = linalg.fill ins(%neg_inf : f32) outs(%ev : tensor<f32>) -> tensor<f32>
  %i0 = linalg.fill ins(%c0_i32 : i32) outs(%ei : tensor<i32>) -> tensor<i32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
                         iterator_types = ["reduction"]}
      ins(%in : tensor<131072xf32>) outs(%v0, %i0 : tensor<f32>, tensor<i32>) {
  ^bb0(%a: f32, %val: f32, %idx: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %m = arith.maximumf %a, %val : f32
    %gt = arith.cmpf ogt, %a, %val : f32
    %s = arith.select %gt, %ii, %idx : i32
    linalg.yield %m, %s : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}
