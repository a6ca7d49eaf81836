// i64 on a Vulkan target without int64 in its `compute` (no shaderInt64; lavapipe states
// it, some devices do not): IREE emulates i64 there, on its own ops only, so the reductions
// that compute in i64 are left to it, with the reason: a row sum of i64, and an argmax whose
// index is i64 (the kernel counts indices in i32 but stores the i64 result). Where the target
// computes i64 they are lowered (programs/reduction/row_sum_i64_13x1001.mlir,
// programs/fused/argmax_f32_16x1000.mlir on lavapipe).
// RUN: lds-opt %s --split-input-file --verify-diagnostics --remarks=missed --pass-pipeline='builtin.module(ldsopt-vector-distribute)' -o %t
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-vector-distribute)' | filecheck %s

// CHECK-LABEL: func.func @row_sum_i64
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic

hal.executable private @row_sum_i64 {
  hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float16,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
    hal.executable.export public @row_sum_i64 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @row_sum_i64() {
        %c0 = arith.constant 0 : index
        %zero = arith.constant 0 : i64
        %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x1001xi64>>
        %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xi64>>
        %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [13, 1001], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x1001xi64>> -> tensor<13x1001xi64>
        %e = tensor.empty() : tensor<13xi64>
        %f = linalg.fill ins(%zero : i64) outs(%e : tensor<13xi64>) -> tensor<13xi64>
        // expected-remark @+1 {{ldsopt-vector-distribute: left to IREE: computes in i64, which the target does not compute natively (IREE emulates it)}}
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<13x1001xi64>) outs(%f : tensor<13xi64>) {
        ^bb0(%a: i64, %o: i64):
          %s = arith.addi %a, %o : i64
          linalg.yield %s : i64
        } -> tensor<13xi64>
        iree_tensor_ext.dispatch.tensor.store %r, %1, offsets = [0], sizes = [13], strides = [1] : tensor<13xi64> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xi64>>
        return
      }
    }
  }
}

// -----

// CHECK-LABEL: func.func @argmax_i64
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic

hal.executable private @argmax_i64 {
  hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float16,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
    hal.executable.export public @argmax_i64 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @argmax_i64() {
        %c0 = arith.constant 0 : index
        %c64 = arith.constant 64 : index
        %ninf = arith.constant 0xFF800000 : f32
        %zero = arith.constant 0 : i64
        %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
        %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
        %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
        %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
        %ev = tensor.empty() : tensor<16xf32>
        %ei = tensor.empty() : tensor<16xi64>
        %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
        %fi = linalg.fill ins(%zero : i64) outs(%ei : tensor<16xi64>) -> tensor<16xi64>
        // expected-remark @+1 {{ldsopt-vector-distribute: left to IREE: computes in i64, which the target does not compute natively (IREE emulates it)}}
        %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x1000xf32>) outs(%fv, %fi : tensor<16xf32>, tensor<16xi64>) {
        ^bb0(%a: f32, %v: f32, %i: i64):
          %idx = linalg.index 1 : index
          %idxc = arith.index_cast %idx : index to i64
          %m = arith.maximumf %a, %v : f32
          %gt = arith.cmpf ogt, %a, %v : f32
          %ni = arith.select %gt, %idxc, %i : i64
          linalg.yield %m, %ni : f32, i64
        } -> (tensor<16xf32>, tensor<16xi64>)
        iree_tensor_ext.dispatch.tensor.store %r#0, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
        iree_tensor_ext.dispatch.tensor.store %r#1, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xi64> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
        return
      }
    }
  }
}
