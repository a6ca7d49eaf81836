// Dynamic extents (`lds-run --keep-dynamic`, as IREE configures a `tensor<?x?xf16>` plus
// `tensor<?xf16>` bias for lavapipe): the extents are workload ordinals. The kernel reads them,
// picks its vector width at run time (4 where the row is a multiple of 4, else scalars) and
// the dispatch_config region computes the workgroup count from the workload; a dynamic extent
// not computed from workload ordinals is left to IREE with the reason.
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-lower-elementwise)' | filecheck %s

// CHECK-LABEL: func.func @main_dispatch_0_elementwise_DxD_f16()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK:         %[[ROWS:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index
// CHECK:         %[[COLS:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 2 : index
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<?x?xf16, {{.*}}>{%[[ROWS]], %[[COLS]]}
// CHECK:         %[[GRID:.+]] = gpu.grid_dim x upper_bound 65535
// CHECK:         %[[STEP:.+]] = arith.muli %[[GRID]], %c256
// CHECK:         %[[REM:.+]] = arith.remui %[[COLS]], %c4
// CHECK:         %[[WHOLE:.+]] = arith.cmpi eq, %[[REM]], %c0
// CHECK:         scf.if %[[WHOLE]] {
// CHECK:           %[[CHUNKS:.+]] = arith.divui %[[COLS]], %c4
// CHECK:           %[[ITEMS:.+]] = arith.muli %[[CHUNKS]], %[[ROWS]]
// CHECK:           scf.for %[[G:.+]] = %{{.+}} to %[[ITEMS]] step %[[STEP]]
// CHECK:             vector.transfer_read %[[X]]{{.*}} vector<4xf16>
// CHECK:             math.tanh %{{.+}} : vector<4xf16>
// CHECK:             vector.transfer_write {{.*}} : vector<4xf16>, memref<?x?xf16
// CHECK:         } else {
// CHECK:           %[[ITEMS1:.+]] = arith.muli %[[COLS]], %[[ROWS]]
// CHECK:           scf.for %{{.+}} = %{{.+}} to %[[ITEMS1]] step %[[STEP]]
// CHECK:             vector.transfer_read %[[X]]{{.*}} vector<1xf16>
// CHECK:             vector.transfer_write {{.*}} : vector<1xf16>, memref<?x?xf16
// CHECK:       iree_codegen.dispatch_config @main_dispatch_0_elementwise_DxD_f16
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %{{.+}}: index, %[[W1:.+]]: index, %[[W2:.+]]: index):
// CHECK:         %[[N:.+]] = arith.muli %[[W1]], %[[W2]]
// CHECK:         %[[N4:.+]] = arith.divui %[[N]], %c4
// CHECK:         %[[ITEMS2:.+]] = arith.select %{{.+}}, %[[N4]], %{{.+}}
// CHECK:         %[[UP:.+]] = arith.addi %[[ITEMS2]], %c255
// CHECK:         %[[WGS:.+]] = arith.divui %[[UP]], %c256
// CHECK:         %[[MIN:.+]] = arith.minui %[[WGS]], %c65535
// CHECK:         %[[COUNT:.+]] = arith.maxui %[[MIN]], %c1
// CHECK:         iree_codegen.yield %[[COUNT]], %c1, %c1

  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_elementwise_DxD_f16 ordinal(0) layout(#hal.pipeline.layout<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2, %arg3)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_elementwise_DxD_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseDistribute> workgroup_size = [8, 1, 1]>} {
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
          %3 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
          %4 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(4) : i32
          %5 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(5) : i32
          %6 = arith.extui %0 : i32 to i64
          %7 = arith.extui %1 : i32 to i64
          %8 = arith.shli %7, %c32_i64 : i64
          %9 = arith.ori %6, %8 : i64
          %10 = arith.index_castui %9 : i64 to index
          %11 = arith.extui %2 : i32 to i64
          %12 = arith.extui %3 : i32 to i64
          %13 = arith.shli %12, %c32_i64 : i64
          %14 = arith.ori %11, %13 : i64
          %15 = arith.index_castui %14 : i64 to index
          %16 = arith.extui %4 : i32 to i64
          %17 = arith.extui %5 : i32 to i64
          %18 = arith.shli %17, %c32_i64 : i64
          %19 = arith.ori %16, %18 : i64
          %20 = arith.index_castui %19 : i64 to index
          %21:3 = util.assume.int 
              %10<umin = 0, umax = 9007199254740991>, 
              %15<umin = 0, umax = 9007199254740991>, 
              %20<umin = 0, umax = 9007199254740991>
            : index, index, index
          %22 = iree_tensor_ext.dispatch.workload.ordinal %21#0, 0 : index
          %23 = iree_tensor_ext.dispatch.workload.ordinal %21#1, 1 : index
          %24 = iree_tensor_ext.dispatch.workload.ordinal %21#2, 2 : index
          %25 = hal.interface.binding.subspan layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf16>>{%23, %24}
          %26 = hal.interface.binding.subspan layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf16>>{%22}
          %27 = hal.interface.binding.subspan layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf16>>{%23, %24}
          %28 = iree_tensor_ext.dispatch.tensor.load %25, offsets = [0, 0], sizes = [%23, %24], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf16>>{%23, %24} -> tensor<?x?xf16>
          %29 = iree_tensor_ext.dispatch.tensor.load %26, offsets = [0], sizes = [%22], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf16>>{%22} -> tensor<?xf16>
          %30 = tensor.empty(%23, %24) : tensor<?x?xf16>
          %31 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%28, %29 : tensor<?x?xf16>, tensor<?xf16>) outs(%30 : tensor<?x?xf16>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1, 8], [1, 1]]>} {
          ^bb0(%in: f16, %in_0: f16, %out: f16):
            %32 = arith.addf %in, %in_0 : f16
            %33 = math.tanh %32 : f16
            linalg.yield %33 : f16
          } -> tensor<?x?xf16>
          iree_tensor_ext.dispatch.tensor.store %31, %27, offsets = [0, 0], sizes = [%23, %24], strides = [1, 1] : tensor<?x?xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf16>>{%23, %24}
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_elementwise_DxD_f16 {
        ^bb0(%arg0: !hal.device, %arg1: index, %arg2: index, %arg3: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2, %arg3)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }

// -----

// Extents that are not workload ordinals: the count region could not compute from them.
// CHECK-LABEL: func.func @not_ordinal()
// CHECK-SAME:    ldsopt.missed = {{.*}}"ldsopt-lower-elementwise", "a dynamic extent that is not computed from the dispatch's workload ordinals"
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic

  hal.executable private @not_ordinal_dispatch {
    hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
      hal.executable.export public @not_ordinal ordinal(0) layout(#hal.pipeline.layout<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2, %arg3)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @not_ordinal() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseDistribute> workgroup_size = [8, 1, 1]>} {
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
          %3 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
          %4 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(4) : i32
          %5 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(5) : i32
          %6 = arith.extui %0 : i32 to i64
          %7 = arith.extui %1 : i32 to i64
          %8 = arith.shli %7, %c32_i64 : i64
          %9 = arith.ori %6, %8 : i64
          %10 = arith.index_castui %9 : i64 to index
          %11 = arith.extui %2 : i32 to i64
          %12 = arith.extui %3 : i32 to i64
          %13 = arith.shli %12, %c32_i64 : i64
          %14 = arith.ori %11, %13 : i64
          %15 = arith.index_castui %14 : i64 to index
          %16 = arith.extui %4 : i32 to i64
          %17 = arith.extui %5 : i32 to i64
          %18 = arith.shli %17, %c32_i64 : i64
          %19 = arith.ori %16, %18 : i64
          %20 = arith.index_castui %19 : i64 to index
          %21:3 = util.assume.int 
              %10<umin = 0, umax = 9007199254740991>, 
              %15<umin = 0, umax = 9007199254740991>, 
              %20<umin = 0, umax = 9007199254740991>
            : index, index, index
          %25 = hal.interface.binding.subspan layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf16>>{%21#1, %21#2}
          %26 = hal.interface.binding.subspan layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf16>>{%21#0}
          %27 = hal.interface.binding.subspan layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf16>>{%21#1, %21#2}
          %28 = iree_tensor_ext.dispatch.tensor.load %25, offsets = [0, 0], sizes = [%21#1, %21#2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf16>>{%21#1, %21#2} -> tensor<?x?xf16>
          %29 = iree_tensor_ext.dispatch.tensor.load %26, offsets = [0], sizes = [%21#0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf16>>{%21#0} -> tensor<?xf16>
          %30 = tensor.empty(%21#1, %21#2) : tensor<?x?xf16>
          %31 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%28, %29 : tensor<?x?xf16>, tensor<?xf16>) outs(%30 : tensor<?x?xf16>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1, 8], [1, 1]]>} {
          ^bb0(%in: f16, %in_0: f16, %out: f16):
            %32 = arith.addf %in, %in_0 : f16
            %33 = math.tanh %32 : f16
            linalg.yield %33 : f16
          } -> tensor<?x?xf16>
          iree_tensor_ext.dispatch.tensor.store %31, %27, offsets = [0, 0], sizes = [%21#1, %21#2], strides = [1, 1] : tensor<?x?xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf16>>{%21#1, %21#2}
          return
        }
        iree_codegen.dispatch_config @not_ordinal {
        ^bb0(%arg0: !hal.device, %arg1: index, %arg2: index, %arg3: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2, %arg3)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }

// -----

// CUDA binds `tensor<?x4xf32>` as a flat `memref<?xf32>` expanded to `[s0 floordiv 4, 4]`: the
// count region computes the rows again from the workload with the same affine.apply. The
// accesses state their alignment, which the dynamic strides hide from the compiler.
// CHECK-LABEL: func.func @main_dispatch_0_elementwise_D_f32()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK:         %[[N:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[ROWS:.+]] = affine.apply #{{.+}}()[%[[N]]]
// CHECK:         %[[A:.+]] = memref.expand_shape {{.*}} output_shape [%[[ROWS]], 4]
// CHECK:         %[[ITEMS:.+]] = arith.muli %[[ROWS]], %c4
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step
// CHECK:           vector.load {{.*}} alignment = 16 {{.*}} vector<4xf32>
// CHECK:           vector.load {{.*}} alignment = 16 {{.*}} vector<4xf32>
// CHECK:           vector.store {{.*}} alignment = 16 {{.*}} vector<4xf32>
// CHECK:       iree_codegen.dispatch_config @main_dispatch_0_elementwise_D_f32
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W0:.+]]: index, %{{.+}}: index):
// CHECK:         affine.apply #{{.+}}()[%[[W0]]]

  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_89", features = "+ptx84", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 101376, max_workgroup_counts = [2147483647, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_elementwise_D_f32 ordinal(0) layout(#hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index, %arg2: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_elementwise_D_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [32, 1, 1] subgroup_size = 32>} {
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
          %3 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
          %4 = arith.extui %0 : i32 to i64
          %5 = arith.extui %1 : i32 to i64
          %6 = arith.shli %5, %c32_i64 : i64
          %7 = arith.ori %4, %6 : i64
          %8 = arith.index_castui %7 : i64 to index
          %9 = arith.extui %2 : i32 to i64
          %10 = arith.extui %3 : i32 to i64
          %11 = arith.shli %10, %c32_i64 : i64
          %12 = arith.ori %9, %11 : i64
          %13 = arith.index_castui %12 : i64 to index
          %14:2 = util.assume.int 
              %8<umin = 0, umax = 36028797018963964, udiv = 4>, 
              %13<umin = 0, umax = 36028797018963964, udiv = 4>
            : index, index
          %15 = iree_tensor_ext.dispatch.workload.ordinal %14#0, 0 : index
          %16 = iree_tensor_ext.dispatch.workload.ordinal %14#1, 1 : index
          %17 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%15}
          %18 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%16}
          %19 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%15}
          %20 = affine.apply affine_map<()[s0] -> (s0 floordiv 4)>()[%15]
          %21 = tensor.empty(%20) : tensor<?x4xf32>
          %expand_shape = memref.expand_shape %19 [[0, 1]] output_shape [%20, 4] : memref<?xf32, #hal.descriptor_type<storage_buffer>> into memref<?x4xf32, #hal.descriptor_type<storage_buffer>>
          %expand_shape_0 = memref.expand_shape %18 [[0, 1]] output_shape [%20, 4] : memref<?xf32, #hal.descriptor_type<storage_buffer>> into memref<?x4xf32, #hal.descriptor_type<storage_buffer>>
          %expand_shape_1 = memref.expand_shape %17 [[0, 1]] output_shape [%20, 4] : memref<?xf32, #hal.descriptor_type<storage_buffer>> into memref<?x4xf32, #hal.descriptor_type<storage_buffer>>
          %22 = iree_codegen.load_from_buffer %expand_shape_1 : memref<?x4xf32, #hal.descriptor_type<storage_buffer>> -> tensor<?x4xf32>
          %23 = iree_codegen.load_from_buffer %expand_shape_0 : memref<?x4xf32, #hal.descriptor_type<storage_buffer>> -> tensor<?x4xf32>
          %24 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%22, %23 : tensor<?x4xf32>, tensor<?x4xf32>) outs(%21 : tensor<?x4xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{thread = [1, 1], workgroup = [1, 32]}>} {
          ^bb0(%in: f32, %in_2: f32, %out: f32):
            %25 = arith.addf %in, %in_2 : f32
            linalg.yield %25 : f32
          } -> tensor<?x4xf32>
          iree_codegen.store_to_buffer %24, %expand_shape : tensor<?x4xf32> into memref<?x4xf32, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_elementwise_D_f32 {
        ^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
