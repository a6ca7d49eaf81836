// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-vector-distribute)' | filecheck %s

// BERT's embeddings and their LayerNorm over a dynamic sequence, as IREE configures them for
// lavapipe from a torch export run with `lds-run --keep-dynamic`: the position ids are a slice
// of their 1x32 buffer of the sequence's length (a workload ordinal), read once per row; the
// token type is read from its table at the row's position id, once per row, and indexes the
// type embeddings, read along the row as the word and position embeddings are.
// CHECK-LABEL: func.func @main_dispatch_0_reduction_Dx32_f32()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK:         %[[IDS:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<1x32xi64
// CHECK:         %[[TYPES:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} offset(%c256) {{.*}} : memref<32xi64
// CHECK:         %[[TYPE_EMB:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<2x32xf32
// CHECK:         %[[LEN:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[POS:.+]] = memref.subview %[[IDS]][0, 0] [1, %[[LEN]]] [1, 1] : memref<1x32xi64, {{.*}}> to memref<?xi64, strided<[1]>
// CHECK:         scf.for %[[ROW:.+]] =
// CHECK:           %[[P:.+]] = memref.load %[[POS]][%[[ROW]]]
// CHECK:           %[[PI:.+]] = arith.index_cast %[[P]] : i64 to index
// CHECK:           %[[T:.+]] = memref.load %[[TYPES]][%[[PI]]]
// CHECK-NOT:       scf.for
// CHECK:           %[[TI:.+]] = arith.index_cast %[[T]] : i64 to index
// CHECK:           vector.transfer_read %[[TYPE_EMB]][%[[TI]], %{{.+}}]{{.*}} vector<4xf32>
// CHECK-NOT:       tensor.extract
#layout = #hal.pipeline.layout<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_reduction_Dx32_f32 ordinal(0) layout(#layout) count(%arg0: !hal.device, %arg1: index, %arg2: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_reduction_Dx32_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<SubgroupReduce> workgroup_size = [8, 1, 1]>} {
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %c256 = arith.constant 256 : index
          %cst = arith.constant 0.000000e+00 : f32
          %cst_0 = arith.constant 3.200000e+01 : f32
          %cst_1 = arith.constant 9.99999996E-13 : f32
          %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(#layout) ordinal(1) : i32
          %2 = hal.interface.constant.load layout(#layout) ordinal(2) : i32
          %3 = arith.index_castui %0 : i32 to index
          %4 = arith.extui %1 : i32 to i64
          %5 = arith.extui %2 : i32 to i64
          %6 = arith.shli %5, %c32_i64 : i64
          %7 = arith.ori %4, %6 : i64
          %8 = arith.index_castui %7 : i64 to index
          %9:2 = util.assume.int 
              %3<umin = 0, umax = 32>, 
              %8<umin = 0, umax = 9007199254740991>
            : index, index
          %10 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32xi64>>
          %11 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c256) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xi64>>
          %12 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x32xf32>>
          %13 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<61x32xf32>>
          %14 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x32xf32>>
          %15 = hal.interface.binding.subspan layout(#layout) binding(5) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xf32>>
          %16 = hal.interface.binding.subspan layout(#layout) binding(6) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xf32>>
          %17 = iree_tensor_ext.dispatch.workload.ordinal %9#1, 1 : index
          %18 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xi64>>{%17}
          %19 = hal.interface.binding.subspan layout(#layout) binding(7) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x32xf32>>{%17}
          %20 = iree_tensor_ext.dispatch.workload.ordinal %9#0, 0 : index
          %21 = iree_tensor_ext.dispatch.tensor.load %11, offsets = [0], sizes = [32], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xi64>> -> tensor<32xi64>
          %22 = iree_tensor_ext.dispatch.tensor.load %12, offsets = [0, 0], sizes = [2, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x32xf32>> -> tensor<2x32xf32>
          %23 = iree_tensor_ext.dispatch.tensor.load %13, offsets = [0, 0], sizes = [61, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<61x32xf32>> -> tensor<61x32xf32>
          %24 = iree_tensor_ext.dispatch.tensor.load %14, offsets = [0, 0], sizes = [32, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x32xf32>> -> tensor<32x32xf32>
          %25 = iree_tensor_ext.dispatch.tensor.load %18, offsets = [0], sizes = [%17], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xi64>>{%17} -> tensor<?xi64>
          %26 = iree_tensor_ext.dispatch.tensor.load %15, offsets = [0], sizes = [32], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xf32>> -> tensor<32xf32>
          %27 = iree_tensor_ext.dispatch.tensor.load %16, offsets = [0], sizes = [32], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xf32>> -> tensor<32xf32>
          %28 = tensor.empty(%17) : tensor<?xf32>
          %29 = tensor.empty(%17) : tensor<?x32xf32>
          %30 = iree_tensor_ext.dispatch.tensor.load %10, offsets = [0, 0], sizes = [1, %20], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32xi64>> -> tensor<?xi64>
          %31 = linalg.fill {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 32]]>} ins(%cst : f32) outs(%28 : tensor<?xf32>) -> tensor<?xf32>
          %32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%25, %30 : tensor<?xi64>, tensor<?xi64>) outs(%29 : tensor<?x32xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 32]]>} {
          ^bb0(%in: i64, %in_2: i64, %out: f32):
            %37 = linalg.index 1 : index
            %38 = arith.index_cast %in_2 : i64 to index
            %extracted = tensor.extract %21[%38] : tensor<32xi64>
            %39 = arith.index_cast %extracted : i64 to index
            %extracted_3 = tensor.extract %22[%39, %37] : tensor<2x32xf32>
            %40 = arith.index_cast %in : i64 to index
            %extracted_4 = tensor.extract %23[%40, %37] : tensor<61x32xf32>
            %extracted_5 = tensor.extract %24[%38, %37] : tensor<32x32xf32>
            %41 = arith.addf %extracted_4, %extracted_3 : f32
            %42 = arith.addf %41, %extracted_5 : f32
            linalg.yield %42 : f32
          } -> tensor<?x32xf32>
          %33 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%32 : tensor<?x32xf32>) outs(%31 : tensor<?xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 32]]>} {
          ^bb0(%in: f32, %out: f32):
            %37 = arith.addf %in, %out : f32
            linalg.yield %37 : f32
          } -> tensor<?xf32>
          %34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%32, %33 : tensor<?x32xf32>, tensor<?xf32>) outs(%29 : tensor<?x32xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 32]]>} {
          ^bb0(%in: f32, %in_2: f32, %out: f32):
            %37 = arith.divf %in_2, %cst_0 : f32
            %38 = arith.subf %in, %37 : f32
            linalg.yield %38 : f32
          } -> tensor<?x32xf32>
          %35 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%34 : tensor<?x32xf32>) outs(%31 : tensor<?xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1], [0, 32]]>} {
          ^bb0(%in: f32, %out: f32):
            %37 = arith.mulf %in, %in : f32
            %38 = arith.addf %37, %out : f32
            linalg.yield %38 : f32
          } -> tensor<?xf32>
          %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%34, %35, %26, %27 : tensor<?x32xf32>, tensor<?xf32>, tensor<32xf32>, tensor<32xf32>) outs(%29 : tensor<?x32xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[], [0, 32]]>} {
          ^bb0(%in: f32, %in_2: f32, %in_3: f32, %in_4: f32, %out: f32):
            %37 = arith.divf %in_2, %cst_0 : f32
            %38 = arith.addf %37, %cst_1 : f32
            %39 = math.rsqrt %38 : f32
            %40 = arith.mulf %in, %39 : f32
            %41 = arith.mulf %40, %in_3 : f32
            %42 = arith.addf %41, %in_4 : f32
            linalg.yield %42 : f32
          } -> tensor<?x32xf32>
          iree_tensor_ext.dispatch.tensor.store %36, %19, offsets = [0, 0], sizes = [%17, 32], strides = [1, 1] : tensor<?x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x32xf32>>{%17}
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_reduction_Dx32_f32 {
        ^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }

// -----

// The position ids' slice is of a size read from a push constant, not a workload ordinal:
// left to IREE, and the remark says which slices are taken.
// CHECK-LABEL: func.func @slice_of_unknown_size
// CHECK-NOT:     ldsopt.lowered_by
// CHECK-SAME:    "reads part of a binding (a tensor slice, not of static offsets, unit strides and sizes static or computed from the dispatch's workload)"
#layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @slice_of_unknown_size() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#layout) ordinal(1) : i32
  %2 = arith.index_castui %0 : i32 to index
  %3 = arith.index_castui %1 : i32 to index
  %4 = iree_tensor_ext.dispatch.workload.ordinal %2, 0 : index
  %5 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x40xi64>>
  %6 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<40x24xf32>>
  %7 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%4}
  %8 = iree_tensor_ext.dispatch.tensor.load %5, offsets = [0, 0], sizes = [1, %3], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x40xi64>> -> tensor<?xi64>
  %9 = iree_tensor_ext.dispatch.tensor.load %6, offsets = [0, 0], sizes = [40, 24], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<40x24xf32>> -> tensor<40x24xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %10 = tensor.empty(%4) : tensor<?xf32>
  %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<?xf32>) -> tensor<?xf32>
  %20 = tensor.empty(%4) : tensor<?x24xf32>
  %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<?xi64>) outs(%20 : tensor<?x24xf32>) {
  ^bb0(%in: i64, %out: f32):
    %13 = linalg.index 1 : index
    %14 = arith.index_cast %in : i64 to index
    %15 = tensor.extract %9[%14, %13] : tensor<40x24xf32>
    linalg.yield %15 : f32
  } -> tensor<?x24xf32>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%21 : tensor<?x24xf32>) outs(%11 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.addf %in, %out : f32
    linalg.yield %16 : f32
  } -> tensor<?xf32>
  iree_tensor_ext.dispatch.tensor.store %12, %7, offsets = [0], sizes = [%4], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%4}
  return
}

// -----

// The token type read once per row is also added to the row, as a value (not only as the
// index of the type table): not an address, left to IREE.
// CHECK-LABEL: func.func @row_read_also_computed_with
// CHECK-NOT:     ldsopt.lowered_by
// CHECK-SAME:    "a body op other than arith, math and linalg.index (or an embedding's table read along the row)"
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @row_read_also_computed_with() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13xi64>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<40xi64>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x24xf32>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xf32>>
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [13], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13xi64>> -> tensor<13xi64>
  %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [40], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<40xi64>> -> tensor<40xi64>
  %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [3, 24], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x24xf32>> -> tensor<3x24xf32>
  %7 = tensor.empty() : tensor<13xf32>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<13xf32>) -> tensor<13xf32>
  %20 = tensor.empty() : tensor<13x24xf32>
  %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<13xi64>) outs(%20 : tensor<13x24xf32>) {
  ^bb0(%in: i64, %out: f32):
    %10 = linalg.index 1 : index
    %11 = arith.index_cast %in : i64 to index
    %12 = tensor.extract %5[%11] : tensor<40xi64>
    %13 = arith.index_cast %12 : i64 to index
    %14 = tensor.extract %6[%13, %10] : tensor<3x24xf32>
    %15 = arith.sitofp %12 : i64 to f32
    %16 = arith.addf %14, %15 : f32
    linalg.yield %16 : f32
  } -> tensor<13x24xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%21 : tensor<13x24xf32>) outs(%8 : tensor<13xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = arith.addf %in, %out : f32
    linalg.yield %17 : f32
  } -> tensor<13xf32>
  iree_tensor_ext.dispatch.tensor.store %9, %3, offsets = [0], sizes = [13], strides = [1] : tensor<13xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xf32>>
  return
}

// -----

// The same dispatch as IREE configures it for CUDA: the position ids are a memref.subview of
// the 1x32 buffer of the sequence's length (a workload ordinal), loaded whole; read once per row.
// CHECK-LABEL: func.func @main_dispatch_0_reduction_Dx32_f32()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK:         %[[ROWS:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index
// CHECK:         %[[LEN:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[POS:.+]] = memref.subview %{{.+}}[0, 0] [1, %[[LEN]]] [1, 1] : memref<1x32xi64, {{.*}}> to memref<?xi64, strided<[1]>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %[[ROWS]] step
// CHECK:           memref.load %[[POS]][%[[ROW]]]

  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_89", features = "+ptx84", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 101376, max_workgroup_counts = [2147483647, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_reduction_Dx32_f32 ordinal(0) layout(#hal.pipeline.layout<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index, %arg2: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_reduction_Dx32_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [32, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %c256 = arith.constant 256 : index
          %cst = arith.constant 0.000000e+00 : f32
          %cst_0 = arith.constant 3.200000e+01 : f32
          %cst_1 = arith.constant 9.99999996E-13 : f32
          %0 = hal.interface.constant.load layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = hal.interface.constant.load layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
          %3 = arith.index_castui %0 : i32 to index
          %4 = arith.extui %1 : i32 to i64
          %5 = arith.extui %2 : i32 to i64
          %6 = arith.shli %5, %c32_i64 : i64
          %7 = arith.ori %4, %6 : i64
          %8 = arith.index_castui %7 : i64 to index
          %9:2 = util.assume.int 
              %3<umin = 0, umax = 32>, 
              %8<umin = 0, umax = 9007199254740991>
            : index, index
          %10 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<1x32xi64, #hal.descriptor_type<storage_buffer>>
          %11 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c256) flags(ReadOnly) : memref<32xi64, strided<[1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %12 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<2x32xf32, #hal.descriptor_type<storage_buffer>>
          %13 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : memref<61x32xf32, #hal.descriptor_type<storage_buffer>>
          %14 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(3) alignment(64) offset(%c0) flags(ReadOnly) : memref<32x32xf32, #hal.descriptor_type<storage_buffer>>
          %15 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(5) alignment(64) offset(%c0) flags(ReadOnly) : memref<32xf32, #hal.descriptor_type<storage_buffer>>
          %16 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(6) alignment(64) offset(%c0) flags(ReadOnly) : memref<32xf32, #hal.descriptor_type<storage_buffer>>
          %17 = iree_tensor_ext.dispatch.workload.ordinal %9#1, 1 : index
          %18 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(4) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?xi64, #hal.descriptor_type<storage_buffer>>{%17}
          %19 = hal.interface.binding.subspan layout(<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(7) alignment(64) offset(%c0) flags(Indirect) : memref<?x32xf32, #hal.descriptor_type<storage_buffer>>{%17}
          %20 = iree_tensor_ext.dispatch.workload.ordinal %9#0, 0 : index
          %21 = iree_codegen.load_from_buffer %11 : memref<32xi64, strided<[1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<32xi64>
          %22 = iree_codegen.load_from_buffer %12 : memref<2x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x32xf32>
          %23 = iree_codegen.load_from_buffer %13 : memref<61x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<61x32xf32>
          %24 = iree_codegen.load_from_buffer %14 : memref<32x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x32xf32>
          %25 = iree_codegen.load_from_buffer %18 : memref<?xi64, #hal.descriptor_type<storage_buffer>> -> tensor<?xi64>
          %26 = iree_codegen.load_from_buffer %15 : memref<32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32xf32>
          %27 = iree_codegen.load_from_buffer %16 : memref<32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32xf32>
          %28 = tensor.empty(%17) : tensor<?xf32>
          %29 = tensor.empty(%17) : tensor<?x32xf32>
          %subview = memref.subview %10[0, 0] [1, %20] [1, 1] : memref<1x32xi64, #hal.descriptor_type<storage_buffer>> to memref<?xi64, strided<[1]>, #hal.descriptor_type<storage_buffer>>
          %30 = iree_codegen.load_from_buffer %subview : memref<?xi64, strided<[1]>, #hal.descriptor_type<storage_buffer>> -> tensor<?xi64>
          %31 = linalg.fill ins(%cst : f32) outs(%28 : tensor<?xf32>) -> tensor<?xf32>
          %32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%25, %30 : tensor<?xi64>, tensor<?xi64>) outs(%29 : tensor<?x32xf32>) {
          ^bb0(%in: i64, %in_2: i64, %out: f32):
            %37 = linalg.index 1 : index
            %38 = arith.index_cast %in_2 : i64 to index
            %extracted = tensor.extract %21[%38] : tensor<32xi64>
            %39 = arith.index_cast %extracted : i64 to index
            %extracted_3 = tensor.extract %22[%39, %37] : tensor<2x32xf32>
            %40 = arith.index_cast %in : i64 to index
            %extracted_4 = tensor.extract %23[%40, %37] : tensor<61x32xf32>
            %extracted_5 = tensor.extract %24[%38, %37] : tensor<32x32xf32>
            %41 = arith.addf %extracted_4, %extracted_3 : f32
            %42 = arith.addf %41, %extracted_5 : f32
            linalg.yield %42 : f32
          } -> tensor<?x32xf32>
          %33 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%32 : tensor<?x32xf32>) outs(%31 : tensor<?xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, 32], [0, 1]], partial_reduction = [0, 32], subgroup_basis = [[1, 1], [0, 1]], thread = [0, 1]}>} {
          ^bb0(%in: f32, %out: f32):
            %37 = arith.addf %in, %out : f32
            linalg.yield %37 : f32
          } -> tensor<?xf32>
          %34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%32, %33 : tensor<?x32xf32>, tensor<?xf32>) outs(%29 : tensor<?x32xf32>) {
          ^bb0(%in: f32, %in_2: f32, %out: f32):
            %37 = arith.divf %in_2, %cst_0 : f32
            %38 = arith.subf %in, %37 : f32
            linalg.yield %38 : f32
          } -> tensor<?x32xf32>
          %35 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%34 : tensor<?x32xf32>) outs(%31 : tensor<?xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, 32], [0, 1]], partial_reduction = [0, 32], subgroup_basis = [[1, 1], [0, 1]], thread = [0, 1], workgroup = [1, 0]}>} {
          ^bb0(%in: f32, %out: f32):
            %37 = arith.mulf %in, %in : f32
            %38 = arith.addf %37, %out : f32
            linalg.yield %38 : f32
          } -> tensor<?xf32>
          %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%34, %35, %26, %27 : tensor<?x32xf32>, tensor<?xf32>, tensor<32xf32>, tensor<32xf32>) outs(%29 : tensor<?x32xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, 32], [0, 1]], serial = [0, 32], subgroup_basis = [[1, 1], [0, 1]], thread = [0, 1]}>} {
          ^bb0(%in: f32, %in_2: f32, %in_3: f32, %in_4: f32, %out: f32):
            %37 = arith.divf %in_2, %cst_0 : f32
            %38 = arith.addf %37, %cst_1 : f32
            %39 = math.rsqrt %38 : f32
            %40 = arith.mulf %in, %39 : f32
            %41 = arith.mulf %40, %in_3 : f32
            %42 = arith.addf %41, %in_4 : f32
            linalg.yield %42 : f32
          } -> tensor<?x32xf32>
          iree_codegen.store_to_buffer %36, %19 : tensor<?x32xf32> into memref<?x32xf32, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_reduction_Dx32_f32 {
        ^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
