// Dynamic extents (`lds-run --keep-dynamic`, as IREE configures them for lavapipe): each a
// workload ordinal of the dispatch.
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-vector-distribute)' | filecheck %s

// A softmax over a dynamic count of rows of 1000: the plan of many rows (the row kept in
// registers, 4-wide reads), the loop over rows to the count read at run time, stepping by the
// workgroups launched, and the count region min(rows, 65535).
// CHECK-LABEL: func.func @main_dispatch_0_softmax_Dx1000xf32_dispatch_tensor_store()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    ldsopt.reduction_layout = {{{.*}}row = "registers"
// CHECK:         %[[ROWS:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<?x1000xf32, {{.*}}>{%[[ROWS]]}
// CHECK:         %[[GRID:.+]] = gpu.grid_dim x upper_bound 65535
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %[[ROWS]] step %[[GRID]] {
// CHECK:           vector.transfer_read %[[X]][%[[ROW]], %{{.+}}]{{.*}} vector<4xf32>
// CHECK:       iree_codegen.dispatch_config @main_dispatch_0_softmax_Dx1000xf32_dispatch_tensor_store
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W:.+]]: index):
// CHECK:         %[[MIN:.+]] = arith.minui %[[W]], %c65535
// CHECK:         %[[COUNT:.+]] = arith.maxui %[[MIN]], %c1
// CHECK:         iree_codegen.yield %[[COUNT]],
  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_softmax_Dx1000xf32_dispatch_tensor_store ordinal(0) layout(#hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_softmax_Dx1000xf32_dispatch_tensor_store() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseDistribute> workgroup_size = [8, 1, 1]>} {
          %cst = arith.constant 0.000000e+00 : f32
          %cst_0 = arith.constant 0xFFC00000 : f32
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = arith.extui %0 : i32 to i64
          %3 = arith.extui %1 : i32 to i64
          %4 = arith.shli %3, %c32_i64 : i64
          %5 = arith.ori %2, %4 : i64
          %6 = arith.index_castui %5 : i64 to index
          %7 = util.assume.int %6<umin = 0, umax = 9007199254740991> : index
          %8 = iree_tensor_ext.dispatch.workload.ordinal %7, 0 : index
          %9 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x1000xf32>>{%8}
          %10 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x1000xf32>>{%8}
          %11 = iree_tensor_ext.dispatch.tensor.load %9, offsets = [0, 0], sizes = [%8, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x1000xf32>>{%8} -> tensor<?x1000xf32>
          %12 = tensor.empty(%8) : tensor<?x1000xf32>
          %13 = tensor.empty(%8) : tensor<?xf32>
          %14 = linalg.fill ins(%cst_0 : f32) outs(%13 : tensor<?xf32>) -> tensor<?xf32>
          %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<?x1000xf32>) outs(%14 : tensor<?xf32>) {
          ^bb0(%in: f32, %out: f32):
            %19 = arith.maxnumf %in, %out : f32
            linalg.yield %19 : f32
          } -> tensor<?xf32>
          %16 = linalg.fill ins(%cst : f32) outs(%13 : tensor<?xf32>) -> tensor<?xf32>
          %17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%11, %15 : tensor<?x1000xf32>, tensor<?xf32>) outs(%16 : tensor<?xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[8], [1]]>} {
          ^bb0(%in: f32, %in_1: f32, %out: f32):
            %19 = arith.subf %in, %in_1 : f32
            %20 = math.exp %19 : f32
            %21 = arith.addf %20, %out : f32
            linalg.yield %21 : f32
          } -> tensor<?xf32>
          %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11, %15, %17 : tensor<?x1000xf32>, tensor<?xf32>, tensor<?xf32>) outs(%12 : tensor<?x1000xf32>) {
          ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
            %19 = arith.subf %in, %in_1 : f32
            %20 = math.exp %19 : f32
            %21 = arith.divf %20, %in_2 : f32
            linalg.yield %21 : f32
          } -> tensor<?x1000xf32>
          iree_tensor_ext.dispatch.tensor.store %18, %10, offsets = [0, 0], sizes = [%8, 1000], strides = [1, 1] : tensor<?x1000xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x1000xf32>>{%8}
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_softmax_Dx1000xf32_dispatch_tensor_store {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }

// -----

// linalg.softmax over 65 rows of a dynamic length (IREE's softmax_dynamic_reduction): two plans
// of a long row, chosen at run time: vectors of 4 where they divide the row (4 loads in flight,
// 256 threads), else scalars (16 loads in flight, the same threads and LDS buffers). The row is
// read again at each of its three sweeps; each sweep runs groups of chunks while a whole group
// remains (to a signed bound) and then the rest one chunk at a time, to the row length:
// nothing clamped, nothing masked. The workgroup count stays 65.
// CHECK-LABEL: func.func @main_dispatch_0_softmax_65xDxf32_dispatch_tensor_store()
// CHECK-SAME:    ldsopt.reduction_layout = {{{.*}}row = "global", row_vectors = array<i64: 4, 1>{{.*}}unroll = 4
// CHECK:         %[[LEN:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<65x?xf32, {{.*}}>{%[[LEN]]}
// CHECK:         %[[REM:.+]] = arith.remui %[[LEN]], %c4
// CHECK:         %[[WHOLE:.+]] = arith.cmpi eq, %[[REM]], %c0
// CHECK:         scf.if %[[WHOLE]] {
// CHECK:           scf.for %[[ROW:.+]] = %{{.+}} to %c65 step %c65 {
// CHECK:             %[[CHUNKS:.+]] = arith.divui %[[LEN]], %c4
// CHECK:             %[[END4:.+]] = arith.subi %[[CHUNKS]], %c768
// CHECK:             %[[MAIN4:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %[[END4]] step %c1024 iter_args
// CHECK-COUNT-4:       vector.transfer_read %[[X]][%[[ROW]], %{{.+}}]{{.*}} vector<4xf32>
// CHECK:             scf.for %{{.+}} = %[[MAIN4]]#1 to %[[CHUNKS]] step %c256 iter_args
// CHECK:         } else {
// CHECK:           scf.for %[[ROW1:.+]] = %{{.+}} to %c65 step %c65 {
// CHECK:             %[[END:.+]] = arith.subi %[[LEN]], %c3840
// CHECK:             %[[MAIN:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %[[END]] step %c4096 iter_args
// CHECK-COUNT-16:      vector.transfer_read %[[X]][%[[ROW1]], %{{.+}}]{{.*}} vector<1xf32>
// CHECK:             scf.for %[[R:.+]] = %[[MAIN]]#1 to %[[LEN]] step %c256 iter_args
// CHECK:               vector.transfer_read %[[X]][%[[ROW1]], %[[R]]]{{.*}} vector<1xf32>
// CHECK-NOT:         arith.minui
// CHECK:       iree_codegen.dispatch_config @main_dispatch_0_softmax_65xDxf32_dispatch_tensor_store
// CHECK:         iree_codegen.yield %c65,
hal.executable private @main_dispatch_0 {
    hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_softmax_65xDxf32_dispatch_tensor_store ordinal(0) layout(#hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_softmax_65xDxf32_dispatch_tensor_store() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<SubgroupReduce> workgroup_size = [8, 1, 1]>} {
          %cst = arith.constant 0.000000e+00 : f32
          %cst_0 = arith.constant 0xFFC00000 : f32
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = arith.extui %0 : i32 to i64
          %3 = arith.extui %1 : i32 to i64
          %4 = arith.shli %3, %c32_i64 : i64
          %5 = arith.ori %2, %4 : i64
          %6 = arith.index_castui %5 : i64 to index
          %7 = util.assume.int %6<umin = 0, umax = 9007199254740991> : index
          %8 = iree_tensor_ext.dispatch.workload.ordinal %7, 0 : index
          %9 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<65x?xf32>>{%8}
          %10 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<65x?xf32>>{%8}
          %11 = iree_tensor_ext.dispatch.tensor.load %9, offsets = [0, 0], sizes = [65, %8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<65x?xf32>>{%8} -> tensor<65x?xf32>
          %12 = tensor.empty(%8) : tensor<65x?xf32>
          %13 = tensor.empty() : tensor<65xf32>
          %14 = linalg.fill {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 8]]>} ins(%cst_0 : f32) outs(%13 : tensor<65xf32>) -> tensor<65xf32>
          %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<65x?xf32>) outs(%14 : tensor<65xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 8]]>} {
          ^bb0(%in: f32, %out: f32):
            %19 = arith.maxnumf %in, %out : f32
            linalg.yield %19 : f32
          } -> tensor<65xf32>
          %16 = linalg.fill {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 8]]>} ins(%cst : f32) outs(%13 : tensor<65xf32>) -> tensor<65xf32>
          %17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%11, %15 : tensor<65x?xf32>, tensor<65xf32>) outs(%16 : tensor<65xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1], [0, 8]]>} {
          ^bb0(%in: f32, %in_1: f32, %out: f32):
            %19 = arith.subf %in, %in_1 : f32
            %20 = math.exp %19 : f32
            %21 = arith.addf %20, %out : f32
            linalg.yield %21 : f32
          } -> tensor<65xf32>
          %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11, %15, %17 : tensor<65x?xf32>, tensor<65xf32>, tensor<65xf32>) outs(%12 : tensor<65x?xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 8]]>} {
          ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
            %19 = arith.subf %in, %in_1 : f32
            %20 = math.exp %19 : f32
            %21 = arith.divf %20, %in_2 : f32
            linalg.yield %21 : f32
          } -> tensor<65x?xf32>
          iree_tensor_ext.dispatch.tensor.store %18, %10, offsets = [0, 0], sizes = [65, %8], strides = [1, 1] : tensor<65x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<65x?xf32>>{%8}
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_softmax_65xDxf32_dispatch_tensor_store {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }

// -----

// A single row sum (f16 -> f32) over a dynamic count of rows of 777: ReductionKernel's loop
// over rows to the count read at run time.
// CHECK-LABEL: func.func @main_dispatch_0_reduction_Dx777_f16xf32()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK:         %[[ROWS:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[GRID:.+]] = gpu.grid_dim x upper_bound 65535
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[ROWS]] step %[[GRID]] {
// CHECK:           gpu.shuffle xor
// CHECK:       iree_codegen.dispatch_config @main_dispatch_0_reduction_Dx777_f16xf32
// CHECK:         arith.minui %{{.+}}, %c65535
  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_reduction_Dx777_f16xf32 ordinal(0) layout(#hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_reduction_Dx777_f16xf32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseDistribute> workgroup_size = [8, 1, 1]>} {
          %cst = arith.constant 0.000000e+00 : f32
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = arith.extui %0 : i32 to i64
          %3 = arith.extui %1 : i32 to i64
          %4 = arith.shli %3, %c32_i64 : i64
          %5 = arith.ori %2, %4 : i64
          %6 = arith.index_castui %5 : i64 to index
          %7 = util.assume.int %6<umin = 0, umax = 9007199254740991> : index
          %8 = iree_tensor_ext.dispatch.workload.ordinal %7, 0 : index
          %9 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x777xf16>>{%8}
          %10 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%8}
          %11 = iree_tensor_ext.dispatch.tensor.load %9, offsets = [0, 0], sizes = [%8, 777], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x777xf16>>{%8} -> tensor<?x777xf16>
          %12 = tensor.empty(%8) : tensor<?xf32>
          %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<?xf32>) -> tensor<?xf32>
          %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<?x777xf16>) outs(%13 : tensor<?xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[8], [1]]>} {
          ^bb0(%in: f16, %out: f32):
            %15 = arith.extf %in : f16 to f32
            %16 = arith.addf %15, %out : f32
            linalg.yield %16 : f32
          } -> tensor<?xf32>
          iree_tensor_ext.dispatch.tensor.store %14, %10, offsets = [0], sizes = [%8], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%8}
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_reduction_Dx777_f16xf32 {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }

// -----

// BERT's pooler over a dynamic sequence, as IREE configures it for lavapipe from a torch export
// run with `lds-run --keep-dynamic`: the first token's hidden state, a static slice of the
// 1x?x1x32 binding of the last layer's output (its outer stride dynamic, its offset 0 there),
// times the dense weight, then bias and tanh: a matrix-vector product.
// CHECK-LABEL: func.func @main_dispatch_15_matmul_1x32x32_f32()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} : memref<1x?x1x32xf32, strided<[?, 32, 32, 1], offset: ?>
// CHECK:         %[[TOKEN:.+]] = memref.subview %[[X]][0, 0, 0, 0] [1, 1, 1, 32] [1, 1, 1, 1] : {{.*}} to memref<1x32xf32, strided<[?, 1], offset: ?>
// CHECK:         vector.transfer_read %[[TOKEN]]
// CHECK:         math.tanh

  hal.executable private @main_dispatch_15 {
    hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_15_matmul_1x32x32_f32 ordinal(0) layout(#hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_15_matmul_1x32x32_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<SubgroupReduce> workgroup_size = [8, 1, 1]>} {
          %cst = arith.constant 0.000000e+00 : f32
          %c32_i64 = arith.constant 32 : i64
          %c128 = arith.constant 128 : index
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = arith.extui %0 : i32 to i64
          %3 = arith.extui %1 : i32 to i64
          %4 = arith.shli %3, %c32_i64 : i64
          %5 = arith.ori %2, %4 : i64
          %6 = arith.index_castui %5 : i64 to index
          %7 = util.assume.int %6<umin = 0, umax = 9007199254740991> : index
          %8 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x32xf32>>
          %9 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32xf32>>
          %10 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32xf32>>
          %11 = iree_tensor_ext.dispatch.workload.ordinal %7, 0 : index
          %12 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c128) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x?x1x32xf32>>{%11}
          %13 = iree_tensor_ext.dispatch.tensor.load %8, offsets = [0, 0], sizes = [32, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x32xf32>> -> tensor<32x32xf32>
          %14 = iree_tensor_ext.dispatch.tensor.load %9, offsets = [0, 0], sizes = [1, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32xf32>> -> tensor<1x32xf32>
          %15 = tensor.empty() : tensor<1x32xf32>
          %16 = linalg.fill {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 0, 32]]>} ins(%cst : f32) outs(%15 : tensor<1x32xf32>) -> tensor<1x32xf32>
          %17 = iree_tensor_ext.dispatch.tensor.load %12, offsets = [0, 0, 0, 0], sizes = [1, 1, 1, 32], strides = [1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x?x1x32xf32>>{%11} -> tensor<1x32xf32>
          %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%17, %13 : tensor<1x32xf32>, tensor<32x32xf32>) outs(%16 : tensor<1x32xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1, 1], [0, 0, 32]]>} {
          ^bb0(%in: f32, %in_0: f32, %out: f32):
            %20 = arith.mulf %in, %in_0 : f32
            %21 = arith.addf %out, %20 : f32
            linalg.yield %21 : f32
          } -> tensor<1x32xf32>
          %19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%18, %14 : tensor<1x32xf32>, tensor<1x32xf32>) outs(%15 : tensor<1x32xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 0, 32]]>} {
          ^bb0(%in: f32, %in_0: f32, %out: f32):
            %20 = arith.addf %in, %in_0 : f32
            %21 = math.tanh %20 : f32
            linalg.yield %21 : f32
          } -> tensor<1x32xf32>
          iree_tensor_ext.dispatch.tensor.store %19, %10, offsets = [0, 0], sizes = [1, 32], strides = [1, 1] : tensor<1x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32xf32>>
          return
        }
        iree_codegen.dispatch_config @main_dispatch_15_matmul_1x32x32_f32 {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
