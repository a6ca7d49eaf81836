// ldsopt-transpose-weights on programs: a matmul's constant K x N weight is read from an N x K
// copy (a transpose behind a fence, which IREE hoists into an initializer).
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-transpose-weights)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --verify-diagnostics --remarks=all --pass-pipeline='builtin.module(ldsopt-transpose-weights)' -o %t
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-transpose-weights{mode=all})' | filecheck %s --check-prefix=ALL
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-transpose-weights)' | filecheck %s --check-prefix=SM89

// Logits over a vocabulary of 1001 (not a multiple of 8): on sm_90a the K x N weight would keep
// the product off wgmma, so it is read from a 1001 x 64 copy, one for both products that read it.
// CHECK:       #[[NK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @logits
// CHECK:         %[[W:.+]] = util.global.load @vocab : tensor<1x64x1001xf16>
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x1001x64xf16>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[W]] : tensor<1x64x1001xf16>) outs(%[[E]] : tensor<1x1001x64xf16>) permutation = [0, 2, 1]
// CHECK:         %[[C:.+]] = iree_tensor_ext.compute_barrier.end %[[T]] : tensor<1x1001x64xf16>
// CHECK:         linalg.batch_matmul indexing_maps = [#{{.+}}, #[[NK]], #{{.+}}] ins(%{{.+}}, %[[C]] : tensor<1x16x64xf16>, tensor<1x1001x64xf16>)
// CHECK:         linalg.batch_matmul indexing_maps = [#{{.+}}, #[[NK]], #{{.+}}] ins(%{{.+}}, %[[C]] : tensor<1x16x64xf16>, tensor<1x1001x64xf16>)
// CHECK-NOT:     linalg.transpose
// On sm_89 (mma.sync) the default leaves it.
// SM89-LABEL: func.func @logits
// SM89-NOT:     linalg.transpose
util.global private @vocab = dense<0.5> : tensor<1x64x1001xf16>
func.func @logits(%x: tensor<1x16x64xf16>, %y: tensor<1x16x64xf16>) -> (tensor<1x16x1001xf32>, tensor<1x16x1001xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = util.global.load @vocab : tensor<1x64x1001xf16>
  %e = tensor.empty() : tensor<1x16x1001xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x1001xf32>) -> tensor<1x16x1001xf32>
  // expected-remark @+1 {{ldsopt-transpose-weights: weight 1x64x1001 read from a copy stored N x K}}
  %r = linalg.batch_matmul ins(%x, %w : tensor<1x16x64xf16>, tensor<1x64x1001xf16>) outs(%acc : tensor<1x16x1001xf32>) -> tensor<1x16x1001xf32>
  // expected-remark @+1 {{ldsopt-transpose-weights: weight 1x64x1001 read from a copy stored N x K}}
  %s = linalg.batch_matmul ins(%y, %w : tensor<1x16x64xf16>, tensor<1x64x1001xf16>) outs(%acc : tensor<1x16x1001xf32>) -> tensor<1x16x1001xf32>
  return %r, %s : tensor<1x16x1001xf32>, tensor<1x16x1001xf32>
}

// -----

// N a multiple of 8: wgmma takes the K x N form, so the default leaves it; `mode=all` rewrites
// a plain matmul's map of B to (n, k).
// CHECK-LABEL: func.func @projection
// CHECK-NOT:     linalg.transpose
// ALL:       #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// ALL-LABEL: func.func @projection
// ALL:         %[[T:.+]] = linalg.transpose ins(%{{.+}} : tensor<64x96xf16>) outs(%{{.+}} : tensor<96x64xf16>) permutation = [1, 0]
// ALL:         %[[C:.+]] = iree_tensor_ext.compute_barrier.end %[[T]]
// ALL:         linalg.matmul indexing_maps = [#{{.+}}, #[[NK]], #{{.+}}] ins(%{{.+}}, %[[C]] : tensor<16x64xf16>, tensor<96x64xf16>)
func.func @projection(%x: tensor<16x64xf16>) -> tensor<16x96xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<64x96xf16>
  %e = tensor.empty() : tensor<16x96xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x96xf32>) -> tensor<16x96xf32>
  %r = linalg.matmul ins(%x, %w : tensor<16x64xf16>, tensor<64x96xf16>) outs(%acc : tensor<16x96xf32>) -> tensor<16x96xf32>
  return %r : tensor<16x96xf32>
}

// -----

// Not a weight (B is an argument), or already N x K: left alone by every mode.
// ALL-LABEL: func.func @left_alone
// ALL-NOT:     linalg.transpose
func.func @left_alone(%x: tensor<16x64xf16>, %b: tensor<64x1001xf16>) -> (tensor<16x1001xf32>, tensor<16x1001xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.25> : tensor<1001x64xf16>
  %e = tensor.empty() : tensor<16x1001xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x1001xf32>) -> tensor<16x1001xf32>
  %r = linalg.matmul ins(%x, %b : tensor<16x64xf16>, tensor<64x1001xf16>) outs(%acc : tensor<16x1001xf32>) -> tensor<16x1001xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<16x64xf16>, tensor<1001x64xf16>) outs(%acc : tensor<16x1001xf32>) -> tensor<16x1001xf32>
  return %r, %s : tensor<16x1001xf32>, tensor<16x1001xf32>
}

// -----

// A contraction generic (as IREE's torch input writes a linear layer) of a bf16 weight 40 x 100:
// its map of B becomes (n, k) over the 100 x 40 copy.
// CHECK-LABEL: func.func @generic_logits
// ALL-LABEL:   func.func @generic_logits
// CHECK:         %[[T:.+]] = linalg.transpose ins(%{{.+}} : tensor<40x100xbf16>) outs(%{{.+}} : tensor<100x40xbf16>) permutation = [1, 0]
// CHECK:         %[[C:.+]] = iree_tensor_ext.compute_barrier.end %[[T]]
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[NK:.+]], #{{.+}}], {{.*}}} ins(%{{.+}}, %[[C]] : tensor<8x40xbf16>, tensor<100x40xbf16>)
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @generic_logits(%x: tensor<8x40xbf16>) -> tensor<8x100xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<40x100xbf16>
  %e = tensor.empty() : tensor<8x100xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x100xf32>) -> tensor<8x100xf32>
  // expected-remark @+1 {{ldsopt-transpose-weights: weight 40x100 read from a copy stored N x K}}
  %r = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8x40xbf16>, tensor<40x100xbf16>) outs(%acc : tensor<8x100xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x100xf32>
  return %r : tensor<8x100xf32>
}
