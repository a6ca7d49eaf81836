// The motivating case of seed 000, as `iree-compile --iree-hal-target-device=cuda
// --iree-cuda-target=sm_89 --compile-to=executable-configurations` forms it: NHWC + NCHW
// add of 256x7x7x2048 f32 (IREE collapsed HW = 49 already). The target comes from the
// executable variant, not from --target. IREE 3.13 gives this dispatch no LDS at all
// (TileAndFuse, 32 threads); here a workgroup takes all 49 of HW and 64 channels.
// RUN: lds-opt %s --pass-pipeline='builtin.module(ldsopt-preload-transposed)' | filecheck %s

// CHECK:       #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> workgroup_size = [256, 1, 1] subgroup_size = 32>
// CHECK-LABEL: func.func @main_dispatch_0_elementwise_transpose_256x2048x49_f32
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// CHECK:         %[[NHWC:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : memref<256x49x2048xf32
// CHECK:         %[[NCHW:.+]] = hal.interface.binding.subspan {{.+}} binding(1)
// CHECK:         %[[NCHWF:.+]] = memref.collapse_shape %[[NCHW]] {{\[\[}}0], [1, 2]] : memref<256x2048x49xf32, {{.+}}> into memref<256x100352xf32
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<49x67xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.block_id x upper_bound 8192
// CHECK:             %[[V:.+]] = vector.load %[[NHWC]][{{.+}}] alignment = 16 : memref<256x49x2048xf32, {{.+}}>, vector<4xf32>
// CHECK:             vector.transfer_write %[[V]], %[[LDS]]
// CHECK:           gpu.barrier
// CHECK:             memref.load %[[LDS]]
// CHECK:             vector.load %[[NCHWF]][{{.+}}] alignment = 16 : memref<256x100352xf32, {{.+}}>, vector<4xf32>
// CHECK-NOT:     linalg.generic
// CHECK:       iree_codegen.dispatch_config @main_dispatch_0_elementwise_transpose_256x2048x49_f32
// CHECK:         %[[N:.+]] = arith.constant 8192 : index
// CHECK:         iree_codegen.yield %[[N]],

hal.executable private @main_dispatch_0 {
  hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_89", features = "+ptx84", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 101376, max_workgroup_counts = [2147483647, 65535, 65535]>>}>) {
    hal.executable.export public @main_dispatch_0_elementwise_transpose_256x2048x49_f32 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_elementwise_transpose_256x2048x49_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [32, 1, 1] subgroup_size = 32>} {
        %c0 = arith.constant 0 : index
        %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x49x2048xf32, #hal.descriptor_type<storage_buffer>>
        %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x2048x49xf32, #hal.descriptor_type<storage_buffer>>
        %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x2048x49xf32, #hal.descriptor_type<storage_buffer>>
        %3 = iree_codegen.load_from_buffer %0 : memref<256x49x2048xf32, #hal.descriptor_type<storage_buffer>> -> tensor<256x49x2048xf32>
        %4 = iree_codegen.load_from_buffer %1 : memref<256x2048x49xf32, #hal.descriptor_type<storage_buffer>> -> tensor<256x2048x49xf32>
        %5 = tensor.empty() : tensor<256x2048x49xf32>
        %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %4 : tensor<256x49x2048xf32>, tensor<256x2048x49xf32>) outs(%5 : tensor<256x2048x49xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{thread = [1, 1, 1], workgroup = [1, 32, 1]}>} {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %7 = arith.addf %in, %in_0 : f32
          linalg.yield %7 : f32
        } -> tensor<256x2048x49xf32>
        iree_codegen.store_to_buffer %6, %2 : tensor<256x2048x49xf32> into memref<256x2048x49xf32, #hal.descriptor_type<storage_buffer>>
        return
      }
      iree_codegen.dispatch_config @main_dispatch_0_elementwise_transpose_256x2048x49_f32 {
      ^bb0(%arg0: !hal.device):
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        iree_codegen.yield %x, %y, %z : index, index, index
      }
    }
  }
}
