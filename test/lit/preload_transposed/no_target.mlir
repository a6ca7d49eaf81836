// Without a #iree_gpu.target around it and without --target, the pass cannot choose and says so.
// RUN: lds-opt %s --verify-diagnostics --pass-pipeline='builtin.module(ldsopt-preload-transposed)'

#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// expected-error @+1 {{ldsopt-preload-transposed: no GPU target for this dispatch}}
func.func @no_target() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<21x1009xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<1009x21xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<21x1009xf32, #hal.descriptor_type<storage_buffer>> -> tensor<21x1009xf32>
  %e = tensor.empty() : tensor<1009x21xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t0 : tensor<21x1009xf32>) outs(%e : tensor<1009x21xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %y = arith.negf %in0 : f32
    linalg.yield %y : f32
  } -> tensor<1009x21xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<1009x21xf32> into memref<1009x21xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @no_target {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

