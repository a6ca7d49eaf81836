// ldsopt-split-attention on programs (before IREE forms dispatches): decode's keys split into
// chunks, each chunk's attention an online_attention of its own (a loop s that K, V, the mask and
// the results read and Q does not), then the combine over s and the normalization.
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-split-attention)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-split-attention)' | filecheck %s --check-prefix=LVP
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-split-attention{splits=4})' | filecheck %s --check-prefix=FOUR
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-split-attention)' | filecheck %s --check-prefix=NOTARGET

// One query row of 32 heads against 4096 keys: on the H200 (132 SMs), 16 chunks of 256 keys
// (512 workgroups, about 4 per SM; chunks keep 256 keys at least); on lavapipe (4 CPU threads)
// the 32 heads fill the machine already: not split.
// CHECK-LABEL: func.func @decode
// CHECK:         %[[K:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2, 3], [4]] output_shape [1, 32, 16, 256, 128]
// CHECK:         %[[V:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2, 3], [4]] output_shape [1, 32, 16, 256, 128]
// CHECK:         %[[MAX0:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<16x1x32x1xf32>)
// CHECK:         %[[P:.+]]:3 = iree_linalg_ext.online_attention
// CHECK-SAME:      ins(%{{.+}}, %[[K]], %[[V]], %{{.+}} : tensor<1x32x1x128xf16>, tensor<1x32x16x256x128xf16>, tensor<1x32x16x256x128xf16>, f16)
// CHECK-SAME:      outs(%{{.+}}, %[[MAX0]], %{{.+}} : tensor<16x1x32x1x128xf32>, tensor<16x1x32x1xf32>, tensor<16x1x32x1xf32>)
// The combine: per output element, over the chunks in order, the running max, sum and output merged.
// CHECK:         %[[C:.+]]:3 = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[P]]#0, %[[P]]#1, %[[P]]#2 :
// CHECK:           %[[M:.+]] = arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK:           math.exp2
// CHECK:           math.exp2
// CHECK:           linalg.yield %[[M]], %{{.+}}, %{{.+}} : f32, f32, f32
// CHECK:         %[[O:.+]] = linalg.generic {{.+}} ins(%[[C]]#1, %[[C]]#2 : tensor<1x32x1x128xf32>, tensor<1x32x1x128xf32>) outs(%{{.+}} : tensor<1x32x1x128xf16>)
// CHECK:           arith.divf
// CHECK:           arith.truncf %{{.+}} : f32 to f16
// CHECK:         return %[[O]]
// LVP-LABEL:   func.func @decode
// LVP-NOT:       online_attention
// FOUR-LABEL:  func.func @decode
// FOUR:          tensor.expand_shape {{.+}} output_shape [1, 32, 4, 1024, 128]
// NOTARGET-LABEL: func.func @decode
// NOTARGET-NOT:   online_attention
func.func @decode(%q: tensor<1x32x1x128xf16>, %k: tensor<1x32x4096x128xf16>, %v: tensor<1x32x4096x128xf16>) -> tensor<1x32x1x128xf16> {
  %scale = arith.constant 0.088388 : f16
  %e = tensor.empty() : tensor<1x32x1x128xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x32x1x128xf16>, tensor<1x32x4096x128xf16>, tensor<1x32x4096x128xf16>, f16)
      outs(%e : tensor<1x32x1x128xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x32x1x128xf16>
  return %o : tensor<1x32x1x128xf16>
}

// -----

// Left alone: more query rows than max-rows (the row tiles fill the machine), a region that
// reads loop indices (it would see a chunk's key index), keys no divisor of which keeps chunks
// of 256 (4099 is prime).
// CHECK-LABEL: func.func @many_rows
// CHECK-NOT:     online_attention
// CHECK:         iree_linalg_ext.attention
// FOUR-LABEL:  func.func @many_rows
// FOUR-NOT:      online_attention
func.func @many_rows(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x4096x64xf16>, %v: tensor<1x2x4096x64xf16>) -> tensor<1x2x64x64xf16> {
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty() : tensor<1x2x64x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x2x64x64xf16>, tensor<1x2x4096x64xf16>, tensor<1x2x4096x64xf16>, f16)
      outs(%e : tensor<1x2x64x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}

// -----

// CHECK-LABEL: func.func @index_region
// CHECK-NOT:     online_attention
// FOUR-LABEL:  func.func @index_region
// FOUR-NOT:      online_attention
func.func @index_region(%q: tensor<1x2x1x64xf32>, %k: tensor<1x2x4096x64xf32>, %v: tensor<1x2x4096x64xf32>) -> tensor<1x2x1x64xf32> {
  %scale = arith.constant 0.125000 : f32
  %e = tensor.empty() : tensor<1x2x1x64xf32>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x2x1x64xf32>, tensor<1x2x4096x64xf32>, tensor<1x2x4096x64xf32>, f32)
      outs(%e : tensor<1x2x1x64xf32>) {
    ^bb0(%s: f32):
      %j = iree_linalg_ext.index 5 : index
      %c100 = arith.constant 100 : index
      %c = arith.cmpi ult, %j, %c100 : index
      %ninf = arith.constant 0xFF800000 : f32
      %r = arith.select %c, %ninf, %s : f32
      iree_linalg_ext.yield %r : f32
  } -> tensor<1x2x1x64xf32>
  return %o : tensor<1x2x1x64xf32>
}

// -----

// CHECK-LABEL: func.func @prime_keys
// CHECK-NOT:     online_attention
func.func @prime_keys(%q: tensor<1x2x1x64xf32>, %k: tensor<1x2x4099x64xf32>, %v: tensor<1x2x4099x64xf32>) -> tensor<1x2x1x64xf32> {
  %scale = arith.constant 0.125000 : f32
  %e = tensor.empty() : tensor<1x2x1x64xf32>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x2x1x64xf32>, tensor<1x2x4099x64xf32>, tensor<1x2x4099x64xf32>, f32)
      outs(%e : tensor<1x2x1x64xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x1x64xf32>
  return %o : tensor<1x2x1x64xf32>
}

// -----

// A mask broadcast over batch and heads (its map leaves those loops out): its key dim is split
// like K's.
// CHECK:       #[[MASKMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d6, d5)>
// CHECK-LABEL: func.func @masked
// CHECK:         %[[MK:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [2, 16, 256] : tensor<2x4096xf32>
// CHECK:         iree_linalg_ext.online_attention <indexing_maps = [{{.+}}, #[[MASKMAP]], {{.+}}]>
// CHECK-SAME:      ins({{.+}}, %[[MK]] :
// On lavapipe's 4 compute units its 3 heads are split too.
// LVP-LABEL:   func.func @masked
// LVP:           iree_linalg_ext.online_attention
// FOUR-LABEL:  func.func @masked
// FOUR:          tensor.expand_shape {{.+}} output_shape [2, 4, 1024]
func.func @masked(%q: tensor<1x3x2x64xf16>, %k: tensor<1x3x4096x64xf16>, %v: tensor<1x3x4096x64xf16>, %mask: tensor<2x4096xf32>) -> tensor<1x3x2x64xf16> {
  %scale = arith.constant 0.125000 : f16
  %e = tensor.empty() : tensor<1x3x2x64xf16>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<1x3x2x64xf16>, tensor<1x3x4096x64xf16>, tensor<1x3x4096x64xf16>, f16, tensor<2x4096xf32>)
      outs(%e : tensor<1x3x2x64xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x3x2x64xf16>
  return %o : tensor<1x3x2x64xf16>
}
