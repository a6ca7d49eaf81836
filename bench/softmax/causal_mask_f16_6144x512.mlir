// The causal softmax of eager attention's scores at BERT-base size (12 heads x 512 queries,
// rows of 512 keys: row i is query i mod 512, which sees keys j <= i mod 512), in f32 from
// f16 scores, the mask computed from the positions (linalg.index), as PyTorch's eager
// attention forms it. lds-bench times ldsopt-vector-distribute's kernel against IREE's.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<6144x512xf16>) -> tensor<6144x512xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %seq = arith.constant 512 : index
  %e1 = tensor.empty() : tensor<6144xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<6144xf32>) -> tensor<6144xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6144x512xf16>) outs(%fm : tensor<6144xf32>) {
  ^bb0(%a: f16, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %q = arith.remui %i, %seq : index
    %later = arith.cmpi ugt, %j, %q : index
    %af = arith.extf %a : f16 to f32
    %s = arith.select %later, %ninf, %af : f32
    %y = arith.maximumf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<6144xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e1 : tensor<6144xf32>) -> tensor<6144xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<6144x512xf16>, tensor<6144xf32>) outs(%fs : tensor<6144xf32>) {
  ^bb0(%a: f16, %mm: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %q = arith.remui %i, %seq : index
    %later = arith.cmpi ugt, %j, %q : index
    %af = arith.extf %a : f16 to f32
    %s = arith.select %later, %ninf, %af : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<6144xf32>
  %e2 = tensor.empty() : tensor<6144x512xf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %sum : tensor<6144x512xf16>, tensor<6144xf32>, tensor<6144xf32>) outs(%e2 : tensor<6144x512xf16>) {
  ^bb0(%a: f16, %mm: f32, %ss: f32, %o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %q = arith.remui %i, %seq : index
    %later = arith.cmpi ugt, %j, %q : index
    %af = arith.extf %a : f16 to f32
    %s = arith.select %later, %ninf, %af : f32
    %d = arith.subf %s, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.divf %ex, %ss : f32
    %h = arith.truncf %y : f32 to f16
    linalg.yield %h : f16
  } -> tensor<6144x512xf16>
  return %r : tensor<6144x512xf16>
}
