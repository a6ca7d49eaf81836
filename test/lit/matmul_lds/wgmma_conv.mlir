// RUN: lds-opt %s --pass-pipeline='builtin.module(ldsopt-matmul-lds)' | filecheck %s

// A padded 3x3 NHWC f16 convolution with its bias and ReLU (2x11x7x24 image, 40 FHWC filters),
// as IREE 3.13 configures it for sm_90a (`lds-run --target cuda-sm90a`, the padding fused into
// the dispatch): the wgmma scheme takes the implicit GEMM. Each 16-byte chunk of A (8 channels)
// is a cp.async from its gathered index of the unpadded image, zero-filled outside it (the
// source size operand), into the 128-byte-swizzled K-major tile; the filters are read as [40,
// 216]; the products are wgmmas.
// CHECK-LABEL: func.func @main_dispatch_0_conv_2x11x7x40x3x3x24_f16xf16xf32
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         memref.alloc() alignment = 1024 {ldsopt.staging = {copy = "direct", dims = ["m", "k"], fragment = "wgmma m64n48k16"
// CHECK:         memref.alloc() alignment = 1024 {ldsopt.staging = {copy = "direct", dims = ["n", "k"], fragment = "wgmma m64n48k16"
// CHECK:         nvgpu.device_async_copy %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], %{{.+}}[%c0, %{{.+}}, %{{.+}}], 8, %{{.+}} bypassL1 : memref<2x11x7x24xf16, #gpu.address_space<global>> to memref<4x64x64xf16, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.device_async_copy {{.*}} : memref<40x3x3x24xf16, #gpu.address_space<global>> to memref<4x48x64xf16, #gpu.address_space<workgroup>>
// CHECK:         scf.for
// CHECK-COUNT-4:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 48, k = 16>
// CHECK:         arith.maximumf
// CHECK-NOT:     nvgpu.mma.sync

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_90a", features = "+ptx84", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>>}>]> : !hal.device
  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_90a", features = "+ptx84", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_conv_2x11x7x40x3x3x24_f16xf16xf32 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_conv_2x11x7x40x3x3x24_f16xf16xf32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = true>}>} {
          %c0 = arith.constant 0 : index
          %cst = arith.constant 0.000000e+00 : f32
          %cst_0 = arith.constant 0.000000e+00 : f16
          %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x11x7x24xf16, #hal.descriptor_type<storage_buffer>>
          %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<40x3x3x24xf16, #hal.descriptor_type<storage_buffer>>
          %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<40xf16, #hal.descriptor_type<storage_buffer>>
          %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x11x7x40xf16, #hal.descriptor_type<storage_buffer>>
          %4 = iree_codegen.load_from_buffer %0 : memref<2x11x7x24xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x11x7x24xf16>
          %5 = iree_codegen.load_from_buffer %1 : memref<40x3x3x24xf16, #hal.descriptor_type<storage_buffer>> -> tensor<40x3x3x24xf16>
          %6 = iree_codegen.load_from_buffer %2 : memref<40xf16, #hal.descriptor_type<storage_buffer>> -> tensor<40xf16>
          %7 = tensor.empty() : tensor<2x11x7x40xf16>
          %8 = tensor.empty() : tensor<2x11x7x40xf32>
          %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<2x11x7x40xf32>) -> tensor<2x11x7x40xf32>
          %padded = tensor.pad %4 low[0, 1, 1, 0] high[0, 1, 1, 0] {
          ^bb0(%arg0: index, %arg1: index, %arg2: index, %arg3: index):
            tensor.yield %cst_0 : f16
          } : tensor<2x11x7x24xf16> to tensor<2x13x9x24xf16>
          %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded, %5 : tensor<2x13x9x24xf16>, tensor<40x3x3x24xf16>) outs(%9 : tensor<2x11x7x40xf32>) attrs =  {linalg.memoized_indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [2, 1, 16, 64, 32], padding_conv = [2, 1, 16, 64, 0, 0, 32], promote_operands = [0, 1], reduction = [0, 0, 0, 0, 2], subgroup = [2, 1, 1, 1, 0], workgroup = [2, 1, 16, 64, 0]}>} {
          ^bb0(%in: f16, %in_1: f16, %out: f32):
            %12 = arith.extf %in : f16 to f32
            %13 = arith.extf %in_1 : f16 to f32
            %14 = arith.mulf %12, %13 : f32
            %15 = arith.addf %out, %14 : f32
            linalg.yield %15 : f32
          } -> tensor<2x11x7x40xf32>
          %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %6 : tensor<2x11x7x40xf32>, tensor<40xf16>) outs(%7 : tensor<2x11x7x40xf16>) {
          ^bb0(%in: f32, %in_1: f16, %out: f16):
            %12 = arith.extf %in_1 : f16 to f32
            %13 = arith.addf %in, %12 : f32
            %14 = arith.maximumf %13, %cst : f32
            %15 = arith.truncf %14 : f32 to f16
            linalg.yield %15 : f16
          } -> tensor<2x11x7x40xf16>
          iree_codegen.store_to_buffer %11, %3 : tensor<2x11x7x40xf16> into memref<2x11x7x40xf16, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_conv_2x11x7x40x3x3x24_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<2x11x7x24xf16>, %input1: tensor<40x3x3x24xf16>, %input2: tensor<40xf16>) -> (%output0: tensor<2x11x7x40xf16>)"}} {
    %c0 = arith.constant 0 : index
    %c12320 = arith.constant 12320 : index
    %c80 = arith.constant 80 : index
    %c17280 = arith.constant 17280 : index
    %c7392 = arith.constant 7392 : index
    %c3 = arith.constant 3 : index
    %c40 = arith.constant 40 : index
    %c24 = arith.constant 24 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c2 = arith.constant 2 : index
    %element_type_f16 = hal.element_type<f16> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c2, %c11, %c7, %c24]) type(%element_type_f16) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<2x11x7x24xf16> in !stream.resource<external>{%c7392}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c40, %c3, %c3, %c24]) type(%element_type_f16) encoding(%dense_row_major)
    %1 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg1 : !hal.buffer_view -> tensor<40x3x3x24xf16> in !stream.resource<external>{%c17280}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c40]) type(%element_type_f16) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg2 : !hal.buffer_view -> tensor<40xf16> in !stream.resource<external>{%c80}
    %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%c12320} => !stream.timepoint
    %3 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%result_timepoint) => with(%0 as %arg3: !stream.resource<external>{%c7392}, %1 as %arg4: !stream.resource<external>{%c17280}, %2 as %arg5: !stream.resource<external>{%c80}, %result as %arg6: !stream.resource<external>{%c12320}) {
      stream.cmd.dispatch @main_dispatch_0::@cuda_nvptx_fb::@main_dispatch_0_conv_2x11x7x40x3x3x24_f16xf16xf32 {
        ro %arg3[%c0 for %c7392] : !stream.resource<external>{%c7392},
        ro %arg4[%c0 for %c17280] : !stream.resource<external>{%c17280},
        ro %arg5[%c0 for %c80] : !stream.resource<external>{%c80},
        wo %arg6[%c0 for %c12320] : !stream.resource<external>{%c12320}
      }
    } => !stream.timepoint
    %4 = stream.timepoint.await %3 => %result : !stream.resource<external>{%c12320}
    %5 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %4 : tensor<2x11x7x40xf16> in !stream.resource<external>{%c12320} -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
}