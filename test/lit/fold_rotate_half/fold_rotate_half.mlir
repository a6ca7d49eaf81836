// ldsopt-fold-rotate-half on programs (before IREE forms dispatches): RoPE's rotate_half of a
// projection's heads, concat(-x[..., d/2:], x[..., :d/2]), becomes the same view of a
// projection by the weights with each head's halves swapped and the first negated.
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-fold-rotate-half)' | filecheck %s
// RUN: lds-opt %s --split-input-file --verify-diagnostics --remarks=all --pass-pipeline='builtin.module(ldsopt-fold-rotate-half)' -o %t

// Llama's Q (f16, computed in f32, cast), split into 2 heads of 8 and transposed, as torch-mlir
// imports an exported graph's Slice, Neg and Concat.
// CHECK-LABEL: func.func @rope_q
// CHECK-SAME:    (%[[X:.+]]: tensor<1x16x32xf16>)
// CHECK:         %[[W:.+]] = arith.constant dense<5.000000e-01> : tensor<1x32x16xf16>
// CHECK:         %[[WH:.+]] = tensor.expand_shape %[[W]] {{\[}}[0], [1], [2, 3, 4]] output_shape [1, 32, 2, 2, 4]
// CHECK-DAG:     %[[LO:.+]] = tensor.extract_slice %[[WH]][0, 0, 0, 0, 0] [1, 32, 2, 1, 4] [1, 1, 1, 1, 1]
// CHECK-DAG:     %[[HI:.+]] = tensor.extract_slice %[[WH]][0, 0, 0, 1, 0] [1, 32, 2, 1, 4] [1, 1, 1, 1, 1]
// CHECK:         %[[NEG:.+]] = linalg.generic {{.*}} ins(%[[HI]] : tensor<1x32x2x1x4xf16>)
// CHECK:           arith.negf
// CHECK:         %[[SW:.+]] = tensor.concat dim(3) %[[NEG]], %[[LO]] : (tensor<1x32x2x1x4xf16>, tensor<1x32x2x1x4xf16>) -> tensor<1x32x2x2x4xf16>
// CHECK:         %[[WR:.+]] = tensor.collapse_shape %[[SW]] {{\[}}[0], [1], [2, 3, 4]] : tensor<1x32x2x2x4xf16> into tensor<1x32x16xf16>
// CHECK:         %[[MM:.+]] = linalg.batch_matmul ins(%[[X]], %[[WR]] : tensor<1x16x32xf16>, tensor<1x32x16xf16>)
// CHECK:         %[[T:.+]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<1x16x16xf32>)
// CHECK:           arith.truncf
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[T]] {{\[}}[0], [1], [2, 3]] output_shape [1, 16, 2, 8]
// CHECK:         %[[R:.+]] = linalg.transpose ins(%[[E]] : tensor<1x16x2x8xf16>) {{.*}} permutation = [0, 2, 1, 3]
// CHECK-NOT:     tensor.concat
// CHECK:         return %{{.+}}, %[[R]]
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @rope_q(%x: tensor<1x16x32xf16>) -> (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) {
  %zero = arith.constant 0.0 : f32
  %w0 = arith.constant dense<0.5> : tensor<1x32x16xf16>
  %e = tensor.empty() : tensor<1x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %p = linalg.batch_matmul ins(%x, %w0 : tensor<1x16x32xf16>, tensor<1x32x16xf16>) outs(%init : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %e16 = tensor.empty() : tensor<1x16x16xf16>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x16x16xf32>) outs(%e16 : tensor<1x16x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x16x16xf16>
  %h = tensor.expand_shape %c [[0], [1], [2, 3]] output_shape [1, 16, 2, 8] : tensor<1x16x16xf16> into tensor<1x16x2x8xf16>
  %et = tensor.empty() : tensor<1x2x16x8xf16>
  %q = linalg.transpose ins(%h : tensor<1x16x2x8xf16>) outs(%et : tensor<1x2x16x8xf16>) permutation = [0, 2, 1, 3]
  %lo = tensor.extract_slice %q[0, 0, 0, 0] [1, 2, 16, 4] [1, 1, 1, 1] : tensor<1x2x16x8xf16> to tensor<1x2x16x4xf16>
  %hi = tensor.extract_slice %q[0, 0, 0, 4] [1, 2, 16, 4] [1, 1, 1, 1] : tensor<1x2x16x8xf16> to tensor<1x2x16x4xf16>
  %en = tensor.empty() : tensor<1x2x16x4xf16>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi : tensor<1x2x16x4xf16>) outs(%en : tensor<1x2x16x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %n = arith.negf %in : f16
    linalg.yield %n : f16
  } -> tensor<1x2x16x4xf16>
  // expected-remark @below {{ldsopt-fold-rotate-half: rotate_half of a projection's heads (d = 8) computed as a projection by rotated weights}}
  %rot = tensor.concat dim(3) %neg, %lo : (tensor<1x2x16x4xf16>, tensor<1x2x16x4xf16>) -> tensor<1x2x16x8xf16>
  return %q, %rot : tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>
}

// -----

// The same with weights that are an argument (not computed from constants): left alone.
// CHECK-LABEL: func.func @weights_not_constant
// CHECK-COUNT-1: linalg.batch_matmul
// CHECK:         tensor.concat dim(3)
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @weights_not_constant(%x: tensor<1x16x32xf16>, %w0: tensor<1x32x16xf16>) -> (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %p = linalg.batch_matmul ins(%x, %w0 : tensor<1x16x32xf16>, tensor<1x32x16xf16>) outs(%init : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %e16 = tensor.empty() : tensor<1x16x16xf16>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<1x16x16xf32>) outs(%e16 : tensor<1x16x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x16x16xf16>
  %h = tensor.expand_shape %c [[0], [1], [2, 3]] output_shape [1, 16, 2, 8] : tensor<1x16x16xf16> into tensor<1x16x2x8xf16>
  %et = tensor.empty() : tensor<1x2x16x8xf16>
  %q = linalg.transpose ins(%h : tensor<1x16x2x8xf16>) outs(%et : tensor<1x2x16x8xf16>) permutation = [0, 2, 1, 3]
  %lo = tensor.extract_slice %q[0, 0, 0, 0] [1, 2, 16, 4] [1, 1, 1, 1] : tensor<1x2x16x8xf16> to tensor<1x2x16x4xf16>
  %hi = tensor.extract_slice %q[0, 0, 0, 4] [1, 2, 16, 4] [1, 1, 1, 1] : tensor<1x2x16x8xf16> to tensor<1x2x16x4xf16>
  %en = tensor.empty() : tensor<1x2x16x4xf16>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi : tensor<1x2x16x4xf16>) outs(%en : tensor<1x2x16x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %n = arith.negf %in : f16
    linalg.yield %n : f16
  } -> tensor<1x2x16x4xf16>
  %rot = tensor.concat dim(3) %neg, %lo : (tensor<1x2x16x4xf16>, tensor<1x2x16x4xf16>) -> tensor<1x2x16x8xf16>
  return %q, %rot : tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>
}

// -----

// The sequence dynamic (a PyTorch export's): the halves' dynamic size is the heads' own extent
// (the value their transpose's init is made of), so they are the whole of it: folded.
// CHECK-LABEL: func.func @rope_q_dynamic
// CHECK-SAME:    (%[[X:.+]]: tensor<1x?x32xf32>)
// CHECK:         %[[SW:.+]] = tensor.concat dim(3) {{.+}} -> tensor<1x32x2x2x4xf32>
// CHECK:         %[[WR:.+]] = tensor.collapse_shape %[[SW]]
// CHECK:         %[[MM:.+]] = linalg.batch_matmul ins(%[[X]], %[[WR]] : tensor<1x?x32xf32>, tensor<1x32x16xf32>)
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[MM]]
// CHECK:         %[[R:.+]] = linalg.transpose ins(%[[E]] : tensor<1x?x2x8xf32>)
// CHECK-NOT:     tensor.concat
// CHECK:         return %{{.+}}, %[[R]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @rope_q_dynamic(%x: tensor<1x?x32xf32>) -> (tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>) {
  %c1 = arith.constant 1 : index
  %s = tensor.dim %x, %c1 : tensor<1x?x32xf32>
  %zero = arith.constant 0.0 : f32
  %w0 = arith.constant dense<0.5> : tensor<1x32x16xf32>
  %e = tensor.empty(%s) : tensor<1x?x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
  %p = linalg.batch_matmul ins(%x, %w0 : tensor<1x?x32xf32>, tensor<1x32x16xf32>) outs(%init : tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
  %h = tensor.expand_shape %p [[0], [1], [2, 3]] output_shape [1, %s, 2, 8] : tensor<1x?x16xf32> into tensor<1x?x2x8xf32>
  %et = tensor.empty(%s) : tensor<1x2x?x8xf32>
  %q = linalg.transpose ins(%h : tensor<1x?x2x8xf32>) outs(%et : tensor<1x2x?x8xf32>) permutation = [0, 2, 1, 3]
  %lo = tensor.extract_slice %q[0, 0, 0, 0] [1, 2, %s, 4] [1, 1, 1, 1] : tensor<1x2x?x8xf32> to tensor<1x2x?x4xf32>
  %hi = tensor.extract_slice %q[0, 0, 0, 4] [1, 2, %s, 4] [1, 1, 1, 1] : tensor<1x2x?x8xf32> to tensor<1x2x?x4xf32>
  %en = tensor.empty(%s) : tensor<1x2x?x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi : tensor<1x2x?x4xf32>) outs(%en : tensor<1x2x?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x2x?x4xf32>
  // expected-remark @below {{ldsopt-fold-rotate-half: rotate_half of a projection's heads (d = 8) computed as a projection by rotated weights}}
  %rot = tensor.concat dim(3) %neg, %lo : (tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>) -> tensor<1x2x?x8xf32>
  return %q, %rot : tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>
}

// -----

// The halves of some other dynamic size (%n rows, not shown to be all of them): left alone.
// CHECK-LABEL: func.func @rope_q_part_of_the_rows
// CHECK-COUNT-1: linalg.batch_matmul
// CHECK:         tensor.concat dim(3)
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @rope_q_part_of_the_rows(%x: tensor<1x?x32xf32>, %n: index) -> (tensor<1x2x?x8xf32>, tensor<1x2x?x4xf32>) {
  %c1 = arith.constant 1 : index
  %s = tensor.dim %x, %c1 : tensor<1x?x32xf32>
  %zero = arith.constant 0.0 : f32
  %w0 = arith.constant dense<0.5> : tensor<1x32x16xf32>
  %e = tensor.empty(%s) : tensor<1x?x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
  %p = linalg.batch_matmul ins(%x, %w0 : tensor<1x?x32xf32>, tensor<1x32x16xf32>) outs(%init : tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
  %h = tensor.expand_shape %p [[0], [1], [2, 3]] output_shape [1, %s, 2, 8] : tensor<1x?x16xf32> into tensor<1x?x2x8xf32>
  %et = tensor.empty(%s) : tensor<1x2x?x8xf32>
  %q = linalg.transpose ins(%h : tensor<1x?x2x8xf32>) outs(%et : tensor<1x2x?x8xf32>) permutation = [0, 2, 1, 3]
  %lo = tensor.extract_slice %q[0, 0, 0, 0] [1, 2, %n, 4] [1, 1, 1, 1] : tensor<1x2x?x8xf32> to tensor<1x2x?x4xf32>
  %hi = tensor.extract_slice %q[0, 0, 0, 4] [1, 2, %n, 4] [1, 1, 1, 1] : tensor<1x2x?x8xf32> to tensor<1x2x?x4xf32>
  %en = tensor.empty(%n) : tensor<1x2x?x4xf32>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi : tensor<1x2x?x4xf32>) outs(%en : tensor<1x2x?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.negf %in : f32
    linalg.yield %m : f32
  } -> tensor<1x2x?x4xf32>
  %rot = tensor.concat dim(3) %neg, %lo : (tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>) -> tensor<1x2x?x8xf32>
  return %rot, %lo : tensor<1x2x?x8xf32>, tensor<1x2x?x4xf32>
}
