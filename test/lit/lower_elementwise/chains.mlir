// Dispatches of several all-parallel generics, a producer in a loop space of its own read by
// its consumer (IREE forms roberta's and MPNet's position ids and their embedding so): MLIR's
// elementwise fusion (linalg-fuse-elementwise-ops) on a copy makes one generic, which replaces
// the dispatch where this pass then takes it; else the dispatch stays as IREE configured it.
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-lower-elementwise)' \
// RUN:   | filecheck %s

#id1 = affine_map<(d0) -> (d0)>
#col = affine_map<(d0, d1) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>

// The position ids (ids + 1, in i64) and the embedding rows they index: one kernel, each
// vector's row index computed once from the loaded id, the row read as a vector.
// CHECK-LABEL: func.func @position_embedding
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK:         memref.load %{{.+}} : memref<9xi32
// CHECK:         arith.extsi %{{.+}} : i32 to i64
// CHECK:         arith.addi
// CHECK:         vector.transfer_read %{{.+}} : memref<40x32xf32{{.*}}>, vector<4xf32>
// CHECK-NOT:     linalg.generic
func.func @position_embedding() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i64
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<9xi32>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<40x32xf32>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<9x32xf32>>
  %ids = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [9], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<9xi32>> -> tensor<9xi32>
  %table = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [40, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<40x32xf32>> -> tensor<40x32xf32>
  %e = tensor.empty() : tensor<9xi64>
  %pos = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%ids : tensor<9xi32>) outs(%e : tensor<9xi64>) {
  ^bb0(%in: i32, %out: i64):
    %x = arith.extsi %in : i32 to i64
    %y = arith.addi %x, %c1 : i64
    linalg.yield %y : i64
  } -> tensor<9xi64>
  %e2 = tensor.empty() : tensor<9x32xf32>
  %r = linalg.generic {indexing_maps = [#col, #id2], iterator_types = ["parallel", "parallel"]} ins(%pos : tensor<9xi64>) outs(%e2 : tensor<9x32xf32>) {
  ^bb0(%p: i64, %out: f32):
    %j = linalg.index 1 : index
    %k = arith.index_cast %p : i64 to index
    %v = tensor.extract %table[%k, %j] : tensor<40x32xf32>
    linalg.yield %v : f32
  } -> tensor<9x32xf32>
  iree_tensor_ext.dispatch.tensor.store %r, %2, offsets = [0, 0], sizes = [9, 32], strides = [1, 1] : tensor<9x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<9x32xf32>>
  return
}

// -----

// A producer read twice (PVT's position ids, the rows and the columns of a table it
// interpolates): copied for each read, then fused; one kernel, element by element (the table
// read varies along the fastest dim otherwise than as a row).
// CHECK-LABEL: func.func @producer_read_twice
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK-COUNT-2: arith.fptosi
// CHECK:         memref.load %{{.+}} : memref<8x8x16xf32
// CHECK-NOT:     linalg.generic
#id1 = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1, d2) -> (d1)>
#cols = affine_map<(d0, d1, d2) -> (d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
func.func @producer_read_twice() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x8x16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x8x8xf32>>
  %grid = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>> -> tensor<8xf32>
  %table = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0, 0], sizes = [8, 8, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x8x16xf32>> -> tensor<8x8x16xf32>
  %e = tensor.empty() : tensor<8xi64>
  %ids = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%grid : tensor<8xf32>) outs(%e : tensor<8xi64>) {
  ^bb0(%in: f32, %out: i64):
    %x = arith.fptosi %in : f32 to i64
    linalg.yield %x : i64
  } -> tensor<8xi64>
  %e2 = tensor.empty() : tensor<16x8x8xf32>
  %r = linalg.generic {indexing_maps = [#rows, #cols, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids, %ids : tensor<8xi64>, tensor<8xi64>) outs(%e2 : tensor<16x8x8xf32>) {
  ^bb0(%i: i64, %j: i64, %out: f32):
    %c = linalg.index 0 : index
    %ii = arith.index_cast %i : i64 to index
    %jj = arith.index_cast %j : i64 to index
    %v = tensor.extract %table[%ii, %jj, %c] : tensor<8x8x16xf32>
    linalg.yield %v : f32
  } -> tensor<16x8x8xf32>
  iree_tensor_ext.dispatch.tensor.store %r, %2, offsets = [0, 0, 0], sizes = [16, 8, 8], strides = [1, 1, 1] : tensor<16x8x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x8x8xf32>>
  return
}

// -----

// Fused, the consumer would read the sums transposed against its fastest dim, which this pass
// does not take (ldsopt-preload-transposed's): the dispatch keeps its two generics and IREE's
// lowering_config on the consumer.
// CHECK:       #[[CONFIG:.+]] = #iree_codegen.lowering_config<tile_sizes = {{\[\[}}1, 8]]>
// CHECK-LABEL: func.func @transposed_chain
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         ldsopt.missed = {{.*}}"2 ops fused in one dispatch (linalg.generic, linalg.generic); this pass takes one"
// CHECK:         linalg.generic
// CHECK:         linalg.generic {{.*}}lowering_config = #[[CONFIG]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
func.func @transposed_chain() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<9x32xf32>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x9xf32>>
  %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [9, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<9x32xf32>> -> tensor<9x32xf32>
  %e = tensor.empty() : tensor<9x32xf32>
  %s = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<9x32xf32>) outs(%e : tensor<9x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %in : f32
    linalg.yield %y : f32
  } -> tensor<9x32xf32>
  %e2 = tensor.empty() : tensor<32x9xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id2], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<9x32xf32>) outs(%e2 : tensor<32x9xf32>) attrs = {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1, 8]]>} {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<32x9xf32>
  iree_tensor_ext.dispatch.tensor.store %t, %1, offsets = [0, 0], sizes = [32, 9], strides = [1, 1] : tensor<32x9xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x9xf32>>
  return
}

// -----

// The chain in i64 on a target that does not compute it (lavapipe as ldsopt declared it before
// it stated shaderInt64): fused, the pass would leave it to IREE, so it stays unfused, with
// IREE's lowering_config.
// CHECK:       #[[CONFIG:.+]] = #iree_codegen.lowering_config<tile_sizes = {{\[\[}}1, 8]]>
// CHECK-LABEL: func.func @chain_in_i64()
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
// CHECK:         linalg.generic {{.*}}lowering_config = #[[CONFIG]]

hal.executable private @chain_in_i64 {
  hal.executable.variant public @vulkan_spirv_fb target(<"vulkan-spirv", "vulkan-spirv-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe", features = "spirv:v1.3,cap:Shader,cap:Float16,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class", wgp = <compute = fp32|fp16|int32|int16|int8, storage = b32|b16|b8, subgroup = shuffle|arithmetic, subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>) {
    hal.executable.export public @chain_in_i64 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @chain_in_i64() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseVectorize> workgroup_size = [8, 1, 1]>} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : i64
        %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xi64>>
        %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xi64>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xi64>> -> tensor<8xi64>
        %4 = tensor.empty() : tensor<8xi64>
        %5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%3 : tensor<8xi64>) outs(%4 : tensor<8xi64>) {
        ^bb0(%in: i64, %out: i64):
          %7 = arith.addi %in, %c1 : i64
          linalg.yield %7 : i64
        } -> tensor<8xi64>
        %6 = tensor.empty() : tensor<8x16xi64>
        %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<8xi64>) outs(%6 : tensor<8x16xi64>) attrs = {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[1, 8]]>} {
        ^bb0(%in: i64, %out: i64):
          %9 = arith.muli %in, %in : i64
          linalg.yield %9 : i64
        } -> tensor<8x16xi64>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [8, 16], strides = [1, 1] : tensor<8x16xi64> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xi64>>
        return
      }
      iree_codegen.dispatch_config @chain_in_i64 {
      ^bb0(%arg0: !hal.device):
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        iree_codegen.yield %x, %y, %z : index, index, index
      }
    }
  }
}
