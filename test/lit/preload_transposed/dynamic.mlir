// Dynamic extents (`lds-run --keep-dynamic`, as IREE configures a ?x32 f32 tensor written
// transposed, 32x?, times a per-row scale, for lavapipe): the sequence length is a workload
// ordinal. The plan is made for a long extent: a 32x64 tile, its input rows staged in a padded
// 64x36 LDS buffer with 4-wide reads along the static 32; along the dynamic dim the output is
// written a scalar at a time (nothing says the extent is a multiple of more). The tile count
// is ceil(D / 64) in the kernel's grid-stride loop (a barrier first, since a workgroup may take
// several tiles) and in the dispatch_config region (at most 65535 workgroups); every access
// along the dynamic dim is guarded against D.
// RUN: lds-opt %s --pass-pipeline='builtin.module(ldsopt-preload-transposed)' | filecheck %s

// CHECK-LABEL: func.func @main_dispatch_0_elementwise_transpose_32xD_f32()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// CHECK:         %[[D:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[K:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<?x32xf32, {{.*}}>{%[[D]]}
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<32x?xf32, {{.*}}>{%[[D]]}
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<64x36xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[UP:.+]] = arith.addi %[[D]], %c63 : index
// CHECK:         %[[TILES:.+]] = arith.divui %[[UP]], %c64 : index
// CHECK:         %[[GRID:.+]] = gpu.grid_dim x upper_bound 65535
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[TILES]] step %[[GRID]] {
// CHECK-NEXT:      gpu.barrier
// CHECK:           %[[IN:.+]] = arith.cmpi ult, %{{.+}}, %[[D]] : index
// CHECK:           scf.if %[[IN]] -> (vector<4xf32>)
// CHECK:             vector.transfer_read %[[K]]{{.*}} vector<4xf32>
// CHECK:           vector.transfer_write {{.*}}, %[[LDS]]{{.*}} : vector<4xf32>
// CHECK:           gpu.barrier
// CHECK:           arith.cmpi ult, %{{.+}}, %[[D]] : index
// CHECK:           vector.transfer_write {{.*}}, %[[OUT]]{{.*}} : vector<1xf32>, memref<32x?xf32
// CHECK:       iree_codegen.dispatch_config @main_dispatch_0_elementwise_transpose_32xD_f32
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W:.+]]: index):
// CHECK:         %[[WUP:.+]] = arith.addi %[[W]], %c63
// CHECK:         %[[N:.+]] = arith.divui %[[WUP]], %c64
// CHECK:         %[[MIN:.+]] = arith.minui %[[N]], %c65535
// CHECK:         %[[COUNT:.+]] = arith.maxui %[[MIN]], %c1
// CHECK:         iree_codegen.yield %[[COUNT]], %c1, %c1

  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
      hal.executable.export public @main_dispatch_0_elementwise_transpose_32xD_f32 ordinal(0) layout(#hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_elementwise_transpose_32xD_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseDistribute> workgroup_size = [8, 1, 1]>} {
          %c32_i64 = arith.constant 32 : i64
          %c0 = arith.constant 0 : index
          %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
          %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
          %2 = arith.extui %0 : i32 to i64
          %3 = arith.extui %1 : i32 to i64
          %4 = arith.shli %3, %c32_i64 : i64
          %5 = arith.ori %2, %4 : i64
          %6 = arith.index_castui %5 : i64 to index
          %7 = util.assume.int %6<umin = 0, umax = 9007199254740991> : index
          %8 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xf32>>
          %9 = iree_tensor_ext.dispatch.workload.ordinal %7, 0 : index
          %10 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x32xf32>>{%9}
          %11 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x?xf32>>{%9}
          %12 = iree_tensor_ext.dispatch.tensor.load %10, offsets = [0, 0], sizes = [%9, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x32xf32>>{%9} -> tensor<?x32xf32>
          %13 = iree_tensor_ext.dispatch.tensor.load %8, offsets = [0], sizes = [32], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xf32>> -> tensor<32xf32>
          %14 = tensor.empty(%9) : tensor<32x?xf32>
          %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%12, %13 : tensor<?x32xf32>, tensor<32xf32>) outs(%14 : tensor<32x?xf32>) attrs =  {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[8, 8], [1, 1]]>} {
          ^bb0(%in: f32, %in_0: f32, %out: f32):
            %16 = arith.mulf %in, %in_0 : f32
            linalg.yield %16 : f32
          } -> tensor<32x?xf32>
          iree_tensor_ext.dispatch.tensor.store %15, %11, offsets = [0, 0], sizes = [32, %9], strides = [1, 1] : tensor<32x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x?xf32>>{%9}
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_elementwise_transpose_32xD_f32 {
        ^bb0(%arg0: !hal.device, %arg1: index):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
