// ldsopt-split-matmul on programs (before IREE forms dispatches): a matmul with few output tiles
// and a long K becomes a batch of partial products over chunks of K (f32 or i32 partials, the
// chunk first) and their sum into the original init; the matmul's consumer reads the sum.
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-split-matmul)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-split-matmul)' | filecheck %s --check-prefix=LVP
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-split-matmul{splits=4})' | filecheck %s --check-prefix=FOUR
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-split-matmul)' | filecheck %s --check-prefix=NOTARGET
// RUN: lds-opt %s --split-input-file --target=cuda --verify-diagnostics --remarks=all --pass-pipeline='builtin.module(ldsopt-split-matmul)' -o %t

// 64x64x8192 f16 + bias + cast to f16 on the H200 (132 SMs): the plan's 8 tiles of 32x32 become
// 128 workgroups over 32 chunks of 256. A [m, k] is read as [m, s, k'] (its batch inside), B
// [k, n] as [s, k', n]; the bias and the cast apply once, to the sum. On lavapipe (4 CPU
// threads) the 64x64 tiles fill the machine: not split, unless splits= forces it.
// CHECK-LABEL: func.func @bias_cast
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<64x64xf32>)
// CHECK:         %[[A:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [64, 32, 256]
// CHECK:         %[[B:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2]] output_shape [32, 256, 64]
// CHECK:         %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<32x64x64xf32>)
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<64x32x256xf16>, tensor<32x256x64xf16>) outs(%[[ZERO]] : tensor<32x64x64xf32>)
// CHECK:           arith.extf
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[P]] : tensor<32x64x64xf32>) outs(%[[INIT]] : tensor<64x64xf32>)
// CHECK:           arith.addf
// CHECK:         %[[OUT:.+]] = linalg.generic {{.+}} ins(%[[SUM]], %{{.+}} : tensor<64x64xf32>, tensor<64xf32>)
// CHECK:           arith.truncf
// CHECK:         return %[[OUT]]
// LVP-LABEL:   func.func @bias_cast
// LVP-NOT:       tensor.expand_shape
// LVP:           linalg.matmul
// FOUR-LABEL:  func.func @bias_cast
// FOUR:          tensor.expand_shape {{.+}} output_shape [64, 4, 2048]
// FOUR:          linalg.generic {{.+}} outs(%{{.+}} : tensor<4x64x64xf32>)
// NOTARGET-LABEL: func.func @bias_cast
// NOTARGET-NOT:   tensor.expand_shape
func.func @bias_cast(%a: tensor<64x8192xf16>, %b: tensor<8192x64xf16>, %bias: tensor<64xf32>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-split-matmul: K = 8192 split into 32 chunks}}
  %mm = linalg.matmul ins(%a, %b : tensor<64x8192xf16>, tensor<8192x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e2 : tensor<64x64xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %y = arith.addf %x, %c : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// -----

// i8 x i8 -> i32, B stored NT ([n, k]: read as [n, s, k']), accumulating into a loaded C:
// 37x50x4095 (4095 = 13 x 315): the partials start from zero and the sum from C.
// CHECK-LABEL: func.func @nt_i8_init
// CHECK-SAME:    %[[C:[^:]+]]: tensor<37x50xi32>
// CHECK-DAG:     tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [37, 13, 315] : tensor<37x4095xi8>
// CHECK-DAG:     tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [50, 13, 315] : tensor<50x4095xi8>
// CHECK:         %[[P:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<13x37x50xi32>)
// CHECK:           arith.extsi
// CHECK:           arith.extsi
// CHECK:           arith.muli
// CHECK:           arith.addi
// CHECK:         %[[SUM:.+]] = linalg.generic {{.+}} ins(%[[P]] : tensor<13x37x50xi32>) outs(%[[C]] : tensor<37x50xi32>)
// CHECK:           arith.addi
// CHECK:         return %[[SUM]]
func.func @nt_i8_init(%a: tensor<37x4095xi8>, %b: tensor<50x4095xi8>, %c: tensor<37x50xi32>) -> tensor<37x50xi32> {
  // expected-remark @+1 {{ldsopt-split-matmul: K = 4095 split into 13 chunks}}
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<37x4095xi8>, tensor<50x4095xi8>) outs(%c : tensor<37x50xi32>) -> tensor<37x50xi32>
  return %r : tensor<37x50xi32>
}

// -----

// A batch matmul (batch 3, f32): the partials have two batch dims, the chunk and the batch;
// A [b, m, k] is read as [b, m, s, k'], B [b, k, n] as [b, s, k', n].
// CHECK-LABEL: func.func @batch_f32
// CHECK-DAG:     %[[A:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2, 3]] output_shape [3, 64, 32, 256]
// CHECK-DAG:     %[[B:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3]] output_shape [3, 32, 256, 64]
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<3x64x32x256xf32>, tensor<3x32x256x64xf32>) outs(%{{.+}} : tensor<32x3x64x64xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.+}} iterator_types = ["reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[P]] : tensor<32x3x64x64xf32>) outs(%{{.+}} : tensor<3x64x64xf32>)
func.func @batch_f32(%a: tensor<3x64x8192xf32>, %b: tensor<3x8192x64xf32>, %c: tensor<3x64x64xf32>) -> tensor<3x64x64xf32> {
  // expected-remark @+1 {{ldsopt-split-matmul: K = 8192 split into 32 chunks: 96 workgroups instead of 24}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x64x8192xf32>, tensor<3x8192x64xf32>) outs(%c : tensor<3x64x64xf32>) -> tensor<3x64x64xf32>
  return %r : tensor<3x64x64xf32>
}

// -----

// Left alone: BERT's 512x768x768 (96 tiles on 132 SMs, but the best split, 2 chunks, costs more
// than the product: the partials' round trip), a prime K (no chunks without padding), f16
// results (rounded after every add), and one that fills the machine (no remark).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return
func.func @left_alone(%a: tensor<512x768xf16>, %b: tensor<768x768xf16>, %c: tensor<512x768xf32>,
                      %p: tensor<64x8191xf16>, %q: tensor<8191x64xf16>, %r: tensor<64x64xf32>,
                      %h: tensor<64x8192xf16>, %i: tensor<8192x64xf16>, %j: tensor<64x64xf16>,
                      %x: tensor<4096x4096xf16>, %y: tensor<4096x4096xf16>, %z: tensor<4096x4096xf32>)
    -> (tensor<512x768xf32>, tensor<64x64xf32>, tensor<64x64xf16>, tensor<4096x4096xf32>) {
  // expected-remark @+1 {{ldsopt-split-matmul: left alone: 96 workgroups on 132 compute units, but the best split (2 chunks) costs}}
  %0 = linalg.matmul ins(%a, %b : tensor<512x768xf16>, tensor<768x768xf16>) outs(%c : tensor<512x768xf32>) -> tensor<512x768xf32>
  // expected-remark @+1 {{ldsopt-split-matmul: left alone: 8 workgroups on 132 compute units, but K = 8191: it has no divisor in [2, 64] leaving chunks of at least 256}}
  %1 = linalg.matmul ins(%p, %q : tensor<64x8191xf16>, tensor<8191x64xf16>) outs(%r : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-split-matmul: left alone: its result is f16, rounded after every add}}
  %2 = linalg.matmul ins(%h, %i : tensor<64x8192xf16>, tensor<8192x64xf16>) outs(%j : tensor<64x64xf16>) -> tensor<64x64xf16>
  %3 = linalg.matmul ins(%x, %y : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%z : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0, %1, %2, %3 : tensor<512x768xf32>, tensor<64x64xf32>, tensor<64x64xf16>, tensor<4096x4096xf32>
}
