// ldsopt-fuse-projections on programs (before IREE forms dispatches): matmuls of one input by
// constant weights become one matmul of the weights concatenated along N, with the consumers
// they share (cast, bias) applied once on the wide result; each member's result is a slice of
// it (of its head split, where every use splits N into heads of one size, so that the slices
// feed attention's loads in place).
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-fuse-projections)' | filecheck %s
// RUN: lds-opt %s --split-input-file --verify-diagnostics --remarks=all --pass-pipeline='builtin.module(ldsopt-fuse-projections)' -o %t

// Q, K and V of a BERT-like layer (f16, computed in f32, cast, bias, split into 2 heads of 16).
// CHECK-LABEL: func.func @qkv_heads
// CHECK:         %[[W:.+]] = tensor.concat dim(2) %{{.+}}, %{{.+}}, %{{.+}} : ({{.*}}) -> tensor<1x32x96xf16>
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x16x96xf32>)
// CHECK:         %[[MM:.+]] = linalg.batch_matmul ins(%{{.+}}, %[[W]] : tensor<1x16x32xf16>, tensor<1x32x96xf16>) outs(%[[INIT]] : tensor<1x16x96xf32>)
// CHECK:         %[[T:.+]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<1x16x96xf32>) outs(%{{.+}} : tensor<1x16x96xf16>)
// CHECK:           arith.truncf
// CHECK:         %[[BIAS:.+]] = tensor.concat dim(0) %{{.+}}, %{{.+}}, %{{.+}} : ({{.*}}) -> tensor<96xf16>
// CHECK:         %[[B:.+]] = linalg.generic {{.*}} ins(%[[T]], %[[BIAS]] : tensor<1x16x96xf16>, tensor<96xf16>)
// CHECK:         %[[H:.+]] = tensor.expand_shape %[[B]] {{\[}}[0], [1], [2, 3]] output_shape [1, 16, 6, 16]
// CHECK-DAG:     %[[Q:.+]] = tensor.extract_slice %[[H]][0, 0, 0, 0] [1, 16, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[K:.+]] = tensor.extract_slice %[[H]][0, 0, 2, 0] [1, 16, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[V:.+]] = tensor.extract_slice %[[H]][0, 0, 4, 0] [1, 16, 2, 16] [1, 1, 1, 1]
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         return %[[Q]], %[[K]], %[[V]]
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#n = affine_map<(d0, d1, d2) -> (d2)>
func.func @qkv_heads(%x: tensor<1x16x32xf16>) -> (tensor<1x16x2x16xf16>, tensor<1x16x2x16xf16>, tensor<1x16x2x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %wq = arith.constant dense<0.5> : tensor<1x32x32xf16>
  %wk = arith.constant dense<0.25> : tensor<1x32x32xf16>
  %wv = arith.constant dense<0.125> : tensor<1x32x32xf16>
  %bq = arith.constant dense<1.0> : tensor<32xf16>
  %bk = arith.constant dense<2.0> : tensor<32xf16>
  %bv = arith.constant dense<3.0> : tensor<32xf16>
  %e32 = tensor.empty() : tensor<1x16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %e16 = tensor.empty() : tensor<1x16x32xf16>
  // expected-remark @+1 {{ldsopt-fuse-projections: 3 projections of one input (N = 32 + 32 + 32) fused into one matmul of N = 96, with 2 elementwise consumers they share}}
  %q0 = linalg.batch_matmul ins(%x, %wq : tensor<1x16x32xf16>, tensor<1x32x32xf16>) outs(%acc : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %q1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q0 : tensor<1x16x32xf32>) outs(%e16 : tensor<1x16x32xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x16x32xf16>
  %q2 = linalg.generic {indexing_maps = [#id, #n, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q1, %bq : tensor<1x16x32xf16>, tensor<32xf16>) outs(%e16 : tensor<1x16x32xf16>) {
  ^bb0(%in: f16, %b: f16, %out: f16):
    %s = arith.addf %in, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x16x32xf16>
  %q = tensor.expand_shape %q2 [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf16> into tensor<1x16x2x16xf16>
  %k0 = linalg.batch_matmul ins(%x, %wk : tensor<1x16x32xf16>, tensor<1x32x32xf16>) outs(%acc : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %k1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k0 : tensor<1x16x32xf32>) outs(%e16 : tensor<1x16x32xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x16x32xf16>
  %k2 = linalg.generic {indexing_maps = [#id, #n, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k1, %bk : tensor<1x16x32xf16>, tensor<32xf16>) outs(%e16 : tensor<1x16x32xf16>) {
  ^bb0(%in: f16, %b: f16, %out: f16):
    %s = arith.addf %in, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x16x32xf16>
  %k = tensor.expand_shape %k2 [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf16> into tensor<1x16x2x16xf16>
  %v0 = linalg.batch_matmul ins(%x, %wv : tensor<1x16x32xf16>, tensor<1x32x32xf16>) outs(%acc : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %v1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v0 : tensor<1x16x32xf32>) outs(%e16 : tensor<1x16x32xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x16x32xf16>
  %v2 = linalg.generic {indexing_maps = [#id, #n, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v1, %bv : tensor<1x16x32xf16>, tensor<32xf16>) outs(%e16 : tensor<1x16x32xf16>) {
  ^bb0(%in: f16, %b: f16, %out: f16):
    %s = arith.addf %in, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x16x32xf16>
  %v = tensor.expand_shape %v2 [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf16> into tensor<1x16x2x16xf16>
  return %q, %k, %v : tensor<1x16x2x16xf16>, tensor<1x16x2x16xf16>, tensor<1x16x2x16xf16>
}

// -----

// A SwiGLU's gate and up projections (f32, plain matmuls, N = 48 and 40): their consumers differ
// (SiLU on the gate alone), so none is carried: the slices are of the product, along N.
// CHECK-LABEL: func.func @gate_up
// CHECK:         %[[W:.+]] = tensor.concat dim(1) %{{.+}}, %{{.+}} : (tensor<32x48xf32>, tensor<32x40xf32>) -> tensor<32x88xf32>
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%{{.+}}, %[[W]] : tensor<16x32xf32>, tensor<32x88xf32>)
// CHECK-DAG:     %[[G:.+]] = tensor.extract_slice %[[MM]][0, 0] [16, 48] [1, 1]
// CHECK-DAG:     %[[U:.+]] = tensor.extract_slice %[[MM]][0, 48] [16, 40] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[G]] : tensor<16x48xf32>)
// CHECK:           math.exp
// CHECK:         return %{{.+}}, %[[U]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @gate_up(%x: tensor<16x32xf32>) -> (tensor<16x48xf32>, tensor<16x40xf32>) {
  %zero = arith.constant 0.0 : f32
  %wg = arith.constant dense<0.5> : tensor<32x48xf32>
  %wu = arith.constant dense<0.25> : tensor<32x40xf32>
  %eg = tensor.empty() : tensor<16x48xf32>
  %ag = linalg.fill ins(%zero : f32) outs(%eg : tensor<16x48xf32>) -> tensor<16x48xf32>
  %eu = tensor.empty() : tensor<16x40xf32>
  %au = linalg.fill ins(%zero : f32) outs(%eu : tensor<16x40xf32>) -> tensor<16x40xf32>
  // expected-remark @+1 {{ldsopt-fuse-projections: 2 projections of one input (N = 48 + 40) fused into one matmul of N = 88, with 0 elementwise consumers they share}}
  %g = linalg.matmul ins(%x, %wg : tensor<16x32xf32>, tensor<32x48xf32>) outs(%ag : tensor<16x48xf32>) -> tensor<16x48xf32>
  %s = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<16x48xf32>) outs(%eg : tensor<16x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    linalg.yield %e : f32
  } -> tensor<16x48xf32>
  %u = linalg.matmul ins(%x, %wu : tensor<16x32xf32>, tensor<32x40xf32>) outs(%au : tensor<16x40xf32>) -> tensor<16x40xf32>
  return %s, %u : tensor<16x48xf32>, tensor<16x40xf32>
}

// -----

// Left alone: weights that are function arguments (concatenating them would copy them on every
// call), and matmuls of different inputs.
// CHECK-LABEL: func.func @not_projections
// CHECK-NOT:     tensor.concat
// CHECK-COUNT-4: linalg.matmul
func.func @not_projections(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>, %w1: tensor<32x8xf32>, %w2: tensor<32x8xf32>)
    -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant dense<0.5> : tensor<32x8xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %0 = linalg.matmul ins(%x, %w1 : tensor<16x32xf32>, tensor<32x8xf32>) outs(%a : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.matmul ins(%x, %w2 : tensor<16x32xf32>, tensor<32x8xf32>) outs(%a : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = linalg.matmul ins(%x, %c : tensor<16x32xf32>, tensor<32x8xf32>) outs(%a : tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = linalg.matmul ins(%y, %c : tensor<16x32xf32>, tensor<32x8xf32>) outs(%a : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0, %1, %2, %3 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// Weights in immutable globals (a PyTorch export's parameters), transposed as a Linear reads them:
// fused (IREE evaluates the concatenation at initialization). A mutable global's are not.
// CHECK-LABEL: func.func @global_weights
// CHECK:         %[[W:.+]] = tensor.concat dim(1) %{{.+}}, %{{.+}} : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x16xf32>
// CHECK:         linalg.matmul ins(%{{.+}}, %[[W]] : tensor<16x32xf32>, tensor<32x16xf32>)
// CHECK-LABEL: func.func @mutable_weights
// CHECK-NOT:     tensor.concat
util.global private @wa = dense<0.5> : tensor<8x32xf32>
util.global private @wb = dense<0.25> : tensor<8x32xf32>
util.global private mutable @wm = dense<0.5> : tensor<32x8xf32>
func.func @global_weights(%x: tensor<16x32xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %et = tensor.empty() : tensor<32x8xf32>
  %la = util.global.load @wa : tensor<8x32xf32>
  %ta = linalg.transpose ins(%la : tensor<8x32xf32>) outs(%et : tensor<32x8xf32>) permutation = [1, 0]
  // expected-remark @+1 {{ldsopt-fuse-projections: 2 projections of one input (N = 8 + 8) fused}}
  %0 = linalg.matmul ins(%x, %ta : tensor<16x32xf32>, tensor<32x8xf32>) outs(%a : tensor<16x8xf32>) -> tensor<16x8xf32>
  %lb = util.global.load @wb : tensor<8x32xf32>
  %tb = linalg.transpose ins(%lb : tensor<8x32xf32>) outs(%et : tensor<32x8xf32>) permutation = [1, 0]
  %1 = linalg.matmul ins(%x, %tb : tensor<16x32xf32>, tensor<32x8xf32>) outs(%a : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}
func.func @mutable_weights(%x: tensor<16x32xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %w = util.global.load @wm : tensor<32x8xf32>
  %c = arith.constant dense<0.5> : tensor<32x8xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%a : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.matmul ins(%x, %c : tensor<16x32xf32>, tensor<32x8xf32>) outs(%a : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// Dynamic rows (an export's sequence), each projection split into heads: fused, the wide
// product's rows those of the first member's init, its head split of that many rows, and each
// member's heads a slice of it.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK:         %[[A:.+]] = linalg.fill
// CHECK:         %[[W:.+]] = tensor.concat dim(1)
// CHECK:         %[[ROWS:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x8xf32>
// CHECK:         %[[E:.+]] = tensor.empty(%[[ROWS]]) : tensor<?x16xf32>
// CHECK:         %[[F:.+]] = linalg.fill {{.+}} outs(%[[E]] : tensor<?x16xf32>)
// CHECK:         %[[P:.+]] = linalg.matmul ins(%{{.+}}, %[[W]] : tensor<?x32xf32>, tensor<32x16xf32>) outs(%[[F]]
// CHECK:         %[[H:.+]] = tensor.expand_shape %[[P]] {{\[}}[0], [1, 2]] output_shape [%[[ROWS]], 4, 4]
// CHECK-DAG:     %[[S0:.+]] = tensor.extract_slice %[[H]][0, 0, 0] [%[[ROWS]], 2, 4] [1, 1, 1]
// CHECK-DAG:     %[[S1:.+]] = tensor.extract_slice %[[H]][0, 2, 0] [%[[ROWS]], 2, 4] [1, 1, 1]
// CHECK:         return %[[S0]], %[[S1]]
func.func @dynamic_rows(%x: tensor<?x32xf32>, %init: tensor<?x8xf32>) -> (tensor<?x2x4xf32>, tensor<?x2x4xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x32xf32>
  %wa = arith.constant dense<0.5> : tensor<32x8xf32>
  %wb = arith.constant dense<0.25> : tensor<32x8xf32>
  %zero = arith.constant 0.0 : f32
  %a = linalg.fill ins(%zero : f32) outs(%init : tensor<?x8xf32>) -> tensor<?x8xf32>
  // expected-remark @+1 {{ldsopt-fuse-projections: 2 projections of one input (N = 8 + 8) fused into one matmul of N = 16, with 0 elementwise consumers they share}}
  %0 = linalg.matmul ins(%x, %wa : tensor<?x32xf32>, tensor<32x8xf32>) outs(%a : tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = linalg.matmul ins(%x, %wb : tensor<?x32xf32>, tensor<32x8xf32>) outs(%a : tensor<?x8xf32>) -> tensor<?x8xf32>
  %h0 = tensor.expand_shape %0 [[0], [1, 2]] output_shape [%n, 2, 4] : tensor<?x8xf32> into tensor<?x2x4xf32>
  %h1 = tensor.expand_shape %1 [[0], [1, 2]] output_shape [%n, 2, 4] : tensor<?x8xf32> into tensor<?x2x4xf32>
  return %h0, %h1 : tensor<?x2x4xf32>, tensor<?x2x4xf32>
}

// -----

// Dynamic rows, the results used whole (a SwiGLU's gate and up): left alone, since IREE would
// copy each slice of a dynamic wide result out in a dispatch of its own.
// CHECK-LABEL: func.func @dynamic_rows_used_whole
// CHECK-NOT:     tensor.concat
func.func @dynamic_rows_used_whole(%x: tensor<?x32xf32>, %init: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %wa = arith.constant dense<0.5> : tensor<32x8xf32>
  %wb = arith.constant dense<0.25> : tensor<32x8xf32>
  %zero = arith.constant 0.0 : f32
  %a = linalg.fill ins(%zero : f32) outs(%init : tensor<?x8xf32>) -> tensor<?x8xf32>
  // expected-remark @+1 {{ldsopt-fuse-projections: left alone: 2 projections of one input (N = 8 + 8) of a dynamic shape, whose slices of a wide result IREE would copy out, a dispatch each}}
  %0 = linalg.matmul ins(%x, %wa : tensor<?x32xf32>, tensor<32x8xf32>) outs(%a : tensor<?x8xf32>) -> tensor<?x8xf32>
  %1 = linalg.matmul ins(%x, %wb : tensor<?x32xf32>, tensor<32x8xf32>) outs(%a : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0, %1 : tensor<?x8xf32>, tensor<?x8xf32>
}

// -----

// GPT-2's Split of its fused QKV projection: the three slices of the last dim, each split into
// 2 heads of 16, become slices of the projection's head split (6 heads). A slice used otherwise
// stays (`@split_used_whole`).
// CHECK-LABEL: func.func @split_heads
// CHECK:         %[[H:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2, 3]] output_shape [1, 16, 6, 16] : tensor<1x16x96xf32> into tensor<1x16x6x16xf32>
// CHECK-DAG:     %[[Q:.+]] = tensor.extract_slice %[[H]][0, 0, 0, 0] [1, 16, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[K:.+]] = tensor.extract_slice %[[H]][0, 0, 2, 0] [1, 16, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[V:.+]] = tensor.extract_slice %[[H]][0, 0, 4, 0] [1, 16, 2, 16] [1, 1, 1, 1]
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return %[[Q]], %[[K]], %[[V]]
// CHECK-LABEL: func.func @split_used_whole
// CHECK-COUNT-2: tensor.extract_slice %{{.+}} : tensor<1x16x96xf32> to tensor<1x16x32xf32>
func.func @split_heads(%qkv: tensor<1x16x96xf32>) -> (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) {
  // expected-remark @+1 {{ldsopt-fuse-projections: 3 slices of one tensor's last dim read as slices of its head split}}
  %q = tensor.extract_slice %qkv[0, 0, 0] [1, 16, 32] [1, 1, 1] : tensor<1x16x96xf32> to tensor<1x16x32xf32>
  %k = tensor.extract_slice %qkv[0, 0, 32] [1, 16, 32] [1, 1, 1] : tensor<1x16x96xf32> to tensor<1x16x32xf32>
  %v = tensor.extract_slice %qkv[0, 0, 64] [1, 16, 32] [1, 1, 1] : tensor<1x16x96xf32> to tensor<1x16x32xf32>
  %qh = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf32> into tensor<1x16x2x16xf32>
  %kh = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf32> into tensor<1x16x2x16xf32>
  %vh = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf32> into tensor<1x16x2x16xf32>
  return %qh, %kh, %vh : tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>
}
func.func @split_used_whole(%qkv: tensor<1x16x96xf32>) -> (tensor<1x16x2x16xf32>, tensor<1x16x32xf32>) {
  %q = tensor.extract_slice %qkv[0, 0, 0] [1, 16, 32] [1, 1, 1] : tensor<1x16x96xf32> to tensor<1x16x32xf32>
  %k = tensor.extract_slice %qkv[0, 0, 32] [1, 16, 32] [1, 1, 1] : tensor<1x16x96xf32> to tensor<1x16x32xf32>
  %qh = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [1, 16, 2, 16] : tensor<1x16x32xf32> into tensor<1x16x2x16xf32>
  return %qh, %k : tensor<1x16x2x16xf32>, tensor<1x16x32xf32>
}

// -----

// GPT-2's Split over a dynamic sequence: the slices' rows are the very extent the projection's
// result was made with (its init's tensor.empty), so they are all of it: slices of its head split.
// CHECK-LABEL: func.func @split_heads_dynamic
// CHECK:         %[[N:.+]] = tensor.dim
// CHECK:         %[[QKV:.+]] = linalg.generic
// CHECK:         %[[H:.+]] = tensor.expand_shape %[[QKV]] {{\[}}[0], [1], [2, 3]] output_shape [1, %[[N]], 6, 16] : tensor<1x?x96xf32> into tensor<1x?x6x16xf32>
// CHECK-DAG:     %[[Q:.+]] = tensor.extract_slice %[[H]][0, 0, 0, 0] [1, %[[N]], 2, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[V:.+]] = tensor.extract_slice %[[H]][0, 0, 4, 0] [1, %[[N]], 2, 16] [1, 1, 1, 1]
// CHECK:         return %[[Q]], %[[V]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @split_heads_dynamic(%x: tensor<1x?x96xf32>) -> (tensor<1x?x2x16xf32>, tensor<1x?x2x16xf32>) {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?x96xf32>
  %e = tensor.empty(%n) : tensor<1x?x96xf32>
  %qkv = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x?x96xf32>) outs(%e : tensor<1x?x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  } -> tensor<1x?x96xf32>
  // expected-remark @+1 {{ldsopt-fuse-projections: 2 slices of one tensor's last dim read as slices of its head split}}
  %q = tensor.extract_slice %qkv[0, 0, 0] [1, %n, 32] [1, 1, 1] : tensor<1x?x96xf32> to tensor<1x?x32xf32>
  %v = tensor.extract_slice %qkv[0, 0, 64] [1, %n, 32] [1, 1, 1] : tensor<1x?x96xf32> to tensor<1x?x32xf32>
  %hq = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [1, %n, 2, 16] : tensor<1x?x32xf32> into tensor<1x?x2x16xf32>
  %hv = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [1, %n, 2, 16] : tensor<1x?x32xf32> into tensor<1x?x2x16xf32>
  return %hq, %hv : tensor<1x?x2x16xf32>, tensor<1x?x2x16xf32>
}
