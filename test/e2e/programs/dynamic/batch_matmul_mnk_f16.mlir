// An f16 batch matmul into f32 whose M, N and K are all dynamic, each its own extent, with A
// [b, m, k] and B [b, n, k] (both K-contiguous, K dynamic: read one element at a time) plus a
// fused tanh: the kernel's workgroup counts along x and y and its K loop's trip count are all
// read at run time.
#out = affine_map<(b, m, n) -> (b, m, n)>
func.func @main(%a: tensor<2x?x?xf16>, %b: tensor<2x?x?xf16>) -> tensor<2x?x?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c1 : tensor<2x?x?xf16>
  %n = tensor.dim %b, %c1 : tensor<2x?x?xf16>
  %e = tensor.empty(%m, %n) : tensor<2x?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>,
                                         affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x?x?xf16>, tensor<2x?x?xf16>) outs(%acc : tensor<2x?x?xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x?x?xf32>
  %y = linalg.generic {indexing_maps = [#out, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<2x?x?xf32>) outs(%e : tensor<2x?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<2x?x?xf32>
  return %y : tensor<2x?x?xf32>
}
