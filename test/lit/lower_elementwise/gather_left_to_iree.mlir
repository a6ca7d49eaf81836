// Eager BERT's token-type embedding at load (the tiny model's initializer as IREE configures it
// for CUDA): a double gather, table[ids[pos[i]], j], the positions a slice of a binding. Neither
// pointwise pass takes a body that gathers; each remark names the ops.
// RUN: lds-opt %s --target=cuda --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-preload-transposed, ldsopt-lower-elementwise)' | filecheck %s

// CHECK-LABEL: func.func @token_type_embedding
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         tensor.extract
func.func @token_type_embedding() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<1x32xi64, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c256) flags(ReadOnly) : memref<32xi64, strided<[1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<2x32xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(2) alignment(64) offset(%c0) flags("None") : memref<7x32xf32, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %1 : memref<32xi64, strided<[1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<32xi64>
  %5 = iree_codegen.load_from_buffer %2 : memref<2x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x32xf32>
  %6 = tensor.empty() : tensor<7x32xf32>
  %subview = memref.subview %0[0, 0] [1, 7] [1, 1] : memref<1x32xi64, #hal.descriptor_type<storage_buffer>> to memref<7xi64, strided<[1]>, #hal.descriptor_type<storage_buffer>>
  %7 = iree_codegen.load_from_buffer %subview : memref<7xi64, strided<[1]>, #hal.descriptor_type<storage_buffer>> -> tensor<7xi64>
  // expected-remark @+2 {{ldsopt-preload-transposed: left to IREE: its body computes with linalg.index, tensor.extract (not elementwise arith/math ops)}}
  // expected-remark @+1 {{ldsopt-lower-elementwise: left to IREE: its body computes with linalg.index, tensor.extract (not elementwise arith/math ops)}}
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<7xi64>) outs(%6 : tensor<7x32xf32>) {
  ^bb0(%in: i64, %out: f32):
    %9 = arith.index_cast %in : i64 to index
    %extracted = tensor.extract %4[%9] : tensor<32xi64>
    %10 = arith.index_cast %extracted : i64 to index
    %11 = linalg.index 1 : index
    %extracted_0 = tensor.extract %5[%10, %11] : tensor<2x32xf32>
    linalg.yield %extracted_0 : f32
  } -> tensor<7x32xf32>
  iree_codegen.store_to_buffer %8, %3 : tensor<7x32xf32> into memref<7x32xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @token_type_embedding {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
