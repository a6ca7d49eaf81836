// BERT's pooler as a torch export gives it: the first token's hidden state (a slice of the
// last layer's output, read in place) times the dense weight [out, in], plus the bias, tanh:
// a product of one row (a matrix-vector product) read as 100 rows of the weight against
// the token's vector. Hidden 96 in, 100 out, 37 tokens.
func.func @main(%h: tensor<1x37x96xf16>, %w: tensor<100x96xf16>, %b: tensor<100xf16>) -> tensor<1x100xf16> {
  %zero = arith.constant 0.0 : f32
  %first = tensor.extract_slice %h[0, 0, 0] [1, 1, 96] [1, 1, 1] : tensor<1x37x96xf16> to tensor<1x96xf16>
  %e = tensor.empty() : tensor<1x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x100xf32>) -> tensor<1x100xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                                        affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%first, %w : tensor<1x96xf16>, tensor<100x96xf16>) outs(%f : tensor<1x100xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %x32 = arith.extf %x : f16 to f32
    %y32 = arith.extf %y : f16 to f32
    %xy = arith.mulf %x32, %y32 : f32
    %s = arith.addf %o, %xy : f32
    linalg.yield %s : f32
  } -> tensor<1x100xf32>
  %e16 = tensor.empty() : tensor<1x100xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<1x100xf32>, tensor<100xf16>) outs(%e16 : tensor<1x100xf16>) {
  ^bb0(%a: f32, %c: f16, %o: f16):
    %a16 = arith.truncf %a : f32 to f16
    %s = arith.addf %a16, %c : f16
    %t = math.tanh %s : f16
    linalg.yield %t : f16
  } -> tensor<1x100xf16>
  return %r : tensor<1x100xf16>
}
