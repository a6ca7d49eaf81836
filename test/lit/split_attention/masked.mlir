// ldsopt-split-attention on a decode program with a mask (kept apart from split_attention.mlir:
// lds-opt --split-input-file crashes parsing a chunk with a constant-index map after another).
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-split-attention)' | filecheck %s

// A mask broadcast through constant indices: its key dim is split like K's, the constants kept.
// CHECK:       #[[MASKMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (0, 0, d2, d6, d5)>
// CHECK-LABEL: func.func @masked
// CHECK:         %[[MK:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 1, 2, 16, 256] : tensor<1x1x2x4096xf32>
// CHECK:         iree_linalg_ext.online_attention <indexing_maps = [{{.+}}, #[[MASKMAP]], {{.+}}]>
// CHECK-SAME:      ins({{.+}}, %[[MK]] :
func.func @masked(%q: tensor<1x3x2x64xf16>, %k: tensor<1x3x4096x64xf16>, %v: tensor<1x3x4096x64xf16>, %mask: tensor<1x1x2x4096xf32>) -> tensor<1x3x2x64xf16> {
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty() : tensor<1x3x2x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (0, 0, m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<1x3x2x64xf16>, tensor<1x3x4096x64xf16>, tensor<1x3x4096x64xf16>, f16, tensor<1x1x2x4096xf32>)
      outs(%e : tensor<1x3x2x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x3x2x64xf16>
  return %o : tensor<1x3x2x64xf16>
}

