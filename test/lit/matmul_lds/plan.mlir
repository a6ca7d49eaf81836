// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds)' | filecheck %s

// The plan's choice of tiling on CUDA (the H200's 132 SMs; `plan_cost`), no tiles given.

// 512 x 768 x 768 f16 (a BERT-base projection): 64x64 tiles, 96 workgroups, not the 24 of
// 128x128 that leave most SMs idle; on CUDA a 64x64 tile is 4 warps (options.CUDA_TILINGS).
// CHECK:       workgroup_size = [128, 1, 1]
// CHECK-LABEL: func.func @bert_projection
// CHECK:         memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}tile = [64, 32]
// CHECK:       iree_codegen.dispatch_config @bert_projection
// CHECK:         arith.constant 12 : index
// CHECK-NEXT:    arith.constant 8 : index
// CHECK-NEXT:    arith.constant 1 : index
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bert_projection() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x768xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<768x768xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<512x768xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<512x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x768xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<768x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<768x768xf16>
  %e = tensor.empty() : tensor<512x768xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<512x768xf32>) -> tensor<512x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x768xf16>, tensor<768x768xf16>) outs(%z : tensor<512x768xf32>) -> tensor<512x768xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<512x768xf32> into memref<512x768xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @bert_projection {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// 4096 x 4096 x 1024 f16: 1024 tiles of 128x128 fill the SMs many times; the most reuse wins.
// CHECK-LABEL: func.func @large
// CHECK:         memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}tile = [128, 32]
// CHECK:       iree_codegen.dispatch_config @large
// CHECK:         arith.constant 32 : index
// CHECK-NEXT:    arith.constant 32 : index
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @large() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x1024xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1024x4096xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<4096x1024xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4096x1024xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<1024x4096xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1024x4096xf16>
  %e = tensor.empty() : tensor<4096x4096xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x1024xf16>, tensor<1024x4096xf16>) outs(%z : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<4096x4096xf32> into memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @large {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// M = 1 (GEMV-like): a 16-row tile of 64 threads (two warps of mma.sync m16n8k16), the grid
// along N only, so B is read once.
// CHECK:       workgroup_size = [64, 1, 1]
// CHECK-LABEL: func.func @gemv
// CHECK:         memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}tile = [16, 32]
// CHECK:       iree_codegen.dispatch_config @gemv
// CHECK:         arith.constant 24 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 1 : index
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @gemv() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x768xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<768x768xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<1x768xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<1x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1x768xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<768x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<768x768xf16>
  %e = tensor.empty() : tensor<1x768xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x768xf32>) -> tensor<1x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x768xf16>, tensor<768x768xf16>) outs(%z : tensor<1x768xf32>) -> tensor<1x768xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<1x768xf32> into memref<1x768xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @gemv {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Attention's Q x K^T, 12 x 512 x 512 x 64 f16 (NT, batched): K = 64 is one K step, so there
// is no K pipeline to hide latency in; the short-K plan (options.SHORT_K_TILINGS) takes 64x64
// tiles of 4 warps (128 threads) for 6 workgroups an SM (nvvm.minctasm), 768 workgroups.
// CHECK-LABEL: func.func @attention_scores
// CHECK-SAME:    nvvm.minctasm = 6 : i32
// CHECK:         memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}threads = 128 : i64, tile = [64, 32]
// CHECK:       iree_codegen.dispatch_config @attention_scores
// CHECK:         arith.constant 8 : index
// CHECK-NEXT:    arith.constant 8 : index
// CHECK-NEXT:    arith.constant 12 : index
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @attention_scores() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<12x512x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<12x512x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<12x512x512xf32, #hal.descriptor_type<storage_buffer>>
  %q = iree_codegen.load_from_buffer %0 : memref<12x512x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<12x512x64xf16>
  %k = iree_codegen.load_from_buffer %1 : memref<12x512x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<12x512x64xf16>
  %e = tensor.empty() : tensor<12x512x512xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<12x512x512xf32>) -> tensor<12x512x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<12x512x64xf16>, tensor<12x512x64xf16>) outs(%z : tensor<12x512x512xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<12x512x512xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<12x512x512xf32> into memref<12x512x512xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @attention_scores {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// The same with K = 128 (two K steps of 64 f16): the usual plan, 2 workgroups an SM.
// CHECK-LABEL: func.func @two_k_steps
// CHECK-SAME:    nvvm.minctasm = 2 : i32
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @two_k_steps() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<12x512x128xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<12x512x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<12x512x512xf32, #hal.descriptor_type<storage_buffer>>
  %q = iree_codegen.load_from_buffer %0 : memref<12x512x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<12x512x128xf16>
  %k = iree_codegen.load_from_buffer %1 : memref<12x512x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<12x512x128xf16>
  %e = tensor.empty() : tensor<12x512x512xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<12x512x512xf32>) -> tensor<12x512x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<12x512x128xf16>, tensor<12x512x128xf16>) outs(%z : tensor<12x512x512xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<12x512x512xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<12x512x512xf32> into memref<12x512x512xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @two_k_steps {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
