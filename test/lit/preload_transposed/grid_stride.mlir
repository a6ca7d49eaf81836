// With fewer workgroups than tiles (max-workgroups=5 for 16 tiles) each workgroup loops over
// tiles: a barrier opens every iteration so that no thread overwrites LDS another still reads.
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-preload-transposed{max-workgroups=5})' | filecheck %s

// CHECK-LABEL: func.func @grid_stride
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<64x33xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[BID:.+]] = gpu.block_id x upper_bound 5
// CHECK:         scf.for %{{.+}} = %[[BID]] to %c16 step %c5
// CHECK-NEXT:      gpu.barrier
// CHECK:           vector.transfer_write %{{.+}}, %[[LDS]]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[LDS]]
// CHECK:       iree_codegen.dispatch_config @grid_stride
// CHECK:         %[[N:.+]] = arith.constant 5 : index
// CHECK:         iree_codegen.yield %[[N]],

#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @grid_stride() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x16x16x64xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x64x16x16xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x64x16x16xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<2x16x16x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x16x16x64xf32>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<2x64x16x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x64x16x16xf32>
  %e = tensor.empty() : tensor<2x64x16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t0, %t1 : tensor<2x16x16x64xf32>, tensor<2x64x16x16xf32>) outs(%e : tensor<2x64x16x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x64x16x16xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<2x64x16x16xf32> into memref<2x64x16x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @grid_stride {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

