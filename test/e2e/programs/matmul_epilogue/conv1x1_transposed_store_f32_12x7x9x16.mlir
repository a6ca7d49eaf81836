// FocalNet's modulator as torch-mlir writes it: a 1x1 convolution over channels-first x
// (16 channels, 7x9 positions) by 12 filters, whose consumer adds the bias, scales by a slice
// of a wider gate tensor (channels 4 to 15 of 1x20, as FocalNet's) and stores the result
// channels last, (c, h, w) -> (h, w, c). IREE keeps the 7x9 positions uncollapsed there, so
// ldsopt-matmul-lds reads the product as an implicit GEMM whose n runs over them; the store
// puts c last, so each lane's element is stored alone at its own position.
func.func @main(%x: tensor<16x7x9xf32>, %w: tensor<12x16xf32>, %bias: tensor<12xf32>, %g: tensor<1x20x7x9xf32>)
    -> tensor<7x9x12xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x7x9xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<12x7x9xf32>) -> tensor<12x7x9xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<16x7x9xf32>, tensor<12x16xf32>) outs(%f : tensor<12x7x9xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<12x7x9xf32>
  %gs = tensor.extract_slice %g[0, 4, 0, 0] [1, 12, 7, 9] [1, 1, 1, 1] : tensor<1x20x7x9xf32> to tensor<12x7x9xf32>
  %et = tensor.empty() : tensor<7x9x12xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias, %gs : tensor<12x7x9xf32>, tensor<12xf32>, tensor<12x7x9xf32>) outs(%et : tensor<7x9x12xf32>) {
  ^bb0(%v: f32, %b: f32, %q: f32, %o: f32):
    %t = arith.addf %v, %b : f32
    %u = arith.mulf %q, %t : f32
    linalg.yield %u : f32
  } -> tensor<7x9x12xf32>
  return %y : tensor<7x9x12xf32>
}
