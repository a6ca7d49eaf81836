// A copy of dynamic rows (`lds-run --keep-dynamic`, as IREE configures the second column slice
// of a ?x96 f32 tensor for CUDA: a subview of the workload's rows, into a binding at a run-time
// offset). The count of rows is the workload ordinal: the grid-stride loop runs over rows x 8
// vectors and steps by the launched grid; the dispatch_config region computes the workgroups
// from the workload (at most 65535). The output binding's offset is read at run time, and
// IREE's util.assume.int states it a multiple of 128 bytes: 16-byte vectors.
// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-lower-copy)' | filecheck %s

// CHECK-LABEL: func.func @main_dispatch_1_slow_memcpy()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-copy"]
// CHECK:         %[[ROWS:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[SRC:.+]] = memref.subview %{{.+}}[0, 32] [%[[ROWS]], 32] [1, 1]
// CHECK:         %[[GRID:.+]] = gpu.grid_dim x upper_bound 65535
// CHECK:         %[[STEP:.+]] = arith.muli %[[GRID]], %c256 : index
// CHECK:         %[[ITEMS:.+]] = arith.muli %[[ROWS]], %c8 : index
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %[[ITEMS]] step %[[STEP]] {
// CHECK:           %[[X:.+]] = vector.load %[[SRC]][{{.+}}] alignment = 16 : {{.+}}, vector<4xf32>
// CHECK:           vector.store %[[X]], {{.+}} alignment = 16 : {{.+}}, vector<4xf32>
// CHECK:       iree_codegen.dispatch_config @main_dispatch_1_slow_memcpy
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W:.+]]: index):
// CHECK:         %[[N:.+]] = arith.muli %[[W]], %c8
// CHECK:         %[[UP:.+]] = arith.addi %[[N]], %c255
// CHECK:         %[[WGS:.+]] = arith.divui %[[UP]], %c256
// CHECK:         %[[MIN:.+]] = arith.minui %[[WGS]], %c65535
// CHECK:         %[[COUNT:.+]] = arith.maxui %[[MIN]], %c1
// CHECK:         iree_codegen.yield %[[COUNT]], %c1, %c1

  hal.executable private @main_dispatch_1 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_89", features = "+ptx84", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 101376, max_workgroup_counts = [2147483647, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_1_slow_memcpy ordinal(0) layout(#hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_1_slow_memcpy() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<Distribute> workgroup_size = [64, 1, 1] subgroup_size = 32>} {
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
          %3 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
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
              %8<umin = 0, umax = 1152921504606846848, udiv = 128>, 
              %13<umin = 0, umax = 9007199254740991>
            : index, index
          %15 = iree_tensor_ext.dispatch.workload.ordinal %14#1, 0 : index
          %16 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x96xf32, #hal.descriptor_type<storage_buffer>>{%15}
          %assume_align = memref.assume_alignment %16, 64 : memref<?x96xf32, #hal.descriptor_type<storage_buffer>>
          %17 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%14#0) flags(Indirect) : memref<?x32xf32, strided<[32, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>{%15}
          %assume_align_0 = memref.assume_alignment %17, 64 : memref<?x32xf32, strided<[32, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %subview = memref.subview %assume_align[0, 32] [%15, 32] [1, 1] : memref<?x96xf32, #hal.descriptor_type<storage_buffer>> to memref<?x32xf32, strided<[96, 1], offset: 32>, #hal.descriptor_type<storage_buffer>>
          linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%subview : memref<?x32xf32, strided<[96, 1], offset: 32>, #hal.descriptor_type<storage_buffer>>) outs(%assume_align_0 : memref<?x32xf32, strided<[32, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1, 64]]>} {
          ^bb0(%in: f32, %out: f32):
            linalg.yield %in : f32
          }
          return
        }
        iree_codegen.dispatch_config @main_dispatch_1_slow_memcpy {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }

// -----

// GPT-2's Split of its fused QKV projection in an export with a dynamic sequence (the suite's
// GPT-2 twin, as IREE configures its K slice for CUDA): the 1x?x96 binding's batch dim has its
// stride read at run time, which moves nothing in a dim of extent 1; both bindings' offsets are
// read at run time, multiples of 128 bytes: 16-byte vectors.
// CHECK-LABEL: func.func @main_dispatch_3_slow_memcpy()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-copy"]
// CHECK:         %[[SRC:.+]] = memref.subview %{{.+}}[0, 0, 32] [1, %{{.+}}, 32] [1, 1, 1] : memref<1x?x96xf32, strided<[?, 96, 1], offset: ?>
// CHECK:         scf.for
// CHECK:           %[[X:.+]] = vector.load %[[SRC]][{{.+}}] alignment = 16 : {{.+}}, vector<4xf32>
// CHECK:           vector.store %[[X]], {{.+}} alignment = 16 : {{.+}}, vector<4xf32>

  hal.executable private @main_dispatch_3 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_89", features = "+ptx84", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 101376, max_workgroup_counts = [2147483647, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_3_slow_memcpy ordinal(0) layout(#hal.pipeline.layout<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_3_slow_memcpy() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<Distribute> workgroup_size = [64, 1, 1] subgroup_size = 32>} {
          %c32_i64 = arith.constant 32 : i64
          %0 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
          %3 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
          %4 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(4) : i32
          %5 = hal.interface.constant.load layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(5) : i32
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
              %10<umin = 0, umax = 4611686018427387392, udiv = 128>, 
              %15<umin = 0, umax = 1152921504606846848, udiv = 128>, 
              %20<umin = 0, umax = 9007199254740991>
            : index, index, index
          %22 = iree_tensor_ext.dispatch.workload.ordinal %21#2, 0 : index
          %23 = hal.interface.binding.subspan layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%21#0) flags("ReadOnly|Indirect") : memref<1x?x96xf32, strided<[?, 96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>{%22}
          %assume_align = memref.assume_alignment %23, 64 : memref<1x?x96xf32, strided<[?, 96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %24 = hal.interface.binding.subspan layout(<constants = 6, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%21#1) flags(Indirect) : memref<?x32xf32, strided<[32, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>{%22}
          %assume_align_0 = memref.assume_alignment %24, 64 : memref<?x32xf32, strided<[32, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %subview = memref.subview %assume_align[0, 0, 32] [1, %22, 32] [1, 1, 1] : memref<1x?x96xf32, strided<[?, 96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x32xf32, strided<[96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%subview : memref<?x32xf32, strided<[96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%assume_align_0 : memref<?x32xf32, strided<[32, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1, 64]]>} {
          ^bb0(%in: f32, %out: f32):
            linalg.yield %in : f32
          }
          return
        }
        iree_codegen.dispatch_config @main_dispatch_3_slow_memcpy {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
