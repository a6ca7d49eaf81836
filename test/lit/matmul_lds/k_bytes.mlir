// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{k-bytes=128 stages=4}, ldsopt-matmul-lds{k-bytes=128 stages=4})' | filecheck %s
// RUN: not lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{k-bytes=24})' 2>&1 | filecheck %s --check-prefix=BAD

// `k-bytes`: the bytes of K one pipeline step stages (BK). A 512 x 768 x 768 f16 projection
// staged by cp.async in K steps of 128 bytes (64 f16), four LDS tiles deep (the fastest
// staging measured on the H200 for the BERT-base shapes, bench/results/cuda-bert/pipeline/):
// 12 K steps, and after each step's math the copies of the tiles ahead stay in flight but the
// next one's (numGroups = stages - 2). The plan recorded by ldsopt-dtl-layout carries it.
// CHECK:       workgroup_size = [128, 1, 1]
// CHECK-LABEL: func.func @bert_projection
// CHECK-SAME:    ldsopt.dtl = {A = "direct
// CHECK-NOT:     ldsopt.matmul_plan
// CHECK:         memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}tile = [64, 64]
// CHECK:         memref.alloc() alignment = 16 {{.*}}operand = "B"{{.*}}tile = [64, 64]
// CHECK:         nvgpu.device_async_wait %{{.*}} numGroups = 2
// CHECK:         scf.for %{{.*}} = %c0 to %c12 step %c1
// CHECK:           nvgpu.mma.sync
// CHECK:           nvgpu.device_async_wait %{{.*}} numGroups = 2
// BAD: <pass-pipeline>:1:{{[0-9]+}}: error: option 'k-bytes' of pass 'ldsopt-matmul-lds' takes >= 0, 0 (the plan's choice) or a multiple of 16 (a K step of whole 16-byte vectors); got '24'
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

