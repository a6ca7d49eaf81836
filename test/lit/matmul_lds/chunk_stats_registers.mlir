// RUN: lds-opt %s --split-input-file --target=lavapipe \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{output-lds=false})' | filecheck %s --check-prefix=LVP
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{cluster-k=2})' | filecheck %s --check-prefix=SPLIT

// Statistics per chunk of the output (as in chunk_stats.mlir) where the output tile is not staged
// in LDS: lavapipe with output-lds=false, and a K split over a cluster, whose summing warps store
// the tile themselves. Each thread applies the statistics' body to the values it stores, the
// chunk's first element broadcast from the first lane holding the chunk (gpu.shuffle idx), the
// lanes holding a chunk of a row add their sums (gpu.shuffle xor), and that first lane stores them.
// Chunks of 16: on lavapipe's FMA tiles a row's 16 columns lie in 8 lanes of 2 (xor 1, 2, 4... of
// one subgroup); under the split the wgmma C layout's quads (xor 1, 2).
// LVP-LABEL: func.func @chunks_of_16
// LVP-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// LVP-NOT:     ldsopt.output_stage
// LVP:         vector.transfer_write {{.*}} : vector<2xf16>, memref<64x128xf16
// LVP:         gpu.shuffle idx
// LVP:         arith.subf {{.*}} : vector<2xf32>
// LVP:         gpu.shuffle xor %{{.+}}, %c1_i32, %c8_i32 : f32
// LVP:         scf.if
// LVP-NEXT:      memref.store %{{.+}} : memref<64x8xf32
// LVP-NEXT:      memref.store %{{.+}} : memref<64x8xf32
// SPLIT-LABEL: func.func @chunks_of_16
// SPLIT-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// SPLIT:         nvvm.wgmma.mma_async
// SPLIT:         mapa.shared::cluster
// SPLIT:         gpu.shuffle idx
// SPLIT:         gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : f32
// SPLIT:         gpu.shuffle xor %{{.+}}, %c2_i32, %c32_i32 : f32
// SPLIT-NOT:     gpu.shuffle xor %{{.+}}, %c4_i32, %c32_i32 : f32
// SPLIT:         scf.if
// SPLIT-NEXT:      memref.store %{{.+}} : memref<64x8xf32
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @chunks_of_16() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x384xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<384x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %5 = hal.interface.binding.subspan layout(#layout) binding(5) alignment(64) offset(%c0) flags(Indirect) : memref<64x8xf32, #hal.descriptor_type<storage_buffer>>
  %6 = hal.interface.binding.subspan layout(#layout) binding(6) alignment(64) offset(%c0) flags(Indirect) : memref<64x8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x384xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x384xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<384x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<384x128xf16>
  %b = iree_codegen.load_from_buffer %2 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %r = iree_codegen.load_from_buffer %3 : memref<64x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x128xf16>
  %ea = tensor.empty() : tensor<64x128xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x128xf32>) -> tensor<64x128xf32>
  %eo = tensor.empty() : tensor<64x128xf16>
  %ec = tensor.empty() : tensor<64x8xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<64x8xf32>) -> tensor<64x8xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x384xf16>, tensor<384x128xf16>) outs(%fa : tensor<64x128xf32>) -> tensor<64x128xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b, %r : tensor<64x128xf32>, tensor<128xf32>, tensor<64x128xf16>) outs(%eo : tensor<64x128xf16>) {
  ^bb0(%acc: f32, %bb: f32, %rr: f16, %o: f16):
    %s = arith.addf %acc, %bb : f32
    %re = arith.extf %rr : f16 to f32
    %t = arith.addf %s, %re : f32
    %y = arith.truncf %t : f32 to f16
    linalg.yield %y : f16
  } -> tensor<64x128xf16>
  %t:2 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, (n floordiv 16) * 16)>, affine_map<(m, n) -> (m, n floordiv 16)>, affine_map<(m, n) -> (m, n floordiv 16)>], iterator_types = ["parallel", "reduction"]}
      ins(%h, %h : tensor<64x128xf16>, tensor<64x128xf16>) outs(%fc, %fc : tensor<64x8xf32>, tensor<64x8xf32>) {
  ^bb0(%v: f16, %v0: f16, %s1: f32, %s2: f32):
    %a = arith.extf %v : f16 to f32
    %a0 = arith.extf %v0 : f16 to f32
    %d = arith.subf %a, %a0 : f32
    %n1 = arith.addf %s1, %d : f32
    %sq = arith.mulf %d, %d : f32
    %n2 = arith.addf %s2, %sq : f32
    linalg.yield %n1, %n2 : f32, f32
  } -> (tensor<64x8xf32>, tensor<64x8xf32>)
  iree_codegen.store_to_buffer %h, %4 : tensor<64x128xf16> into memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %t#0, %5 : tensor<64x8xf32> into memref<64x8xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %t#1, %6 : tensor<64x8xf32> into memref<64x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Chunks of 64: a row's chunk spans 32 lanes of lavapipe's FMA tile, more than a subgroup of 8,
// so without the stage the dispatch is left alone, with the reason; under the split the quads of
// the wgmma C layout hold it (their 8 column blocks of 8 in each lane).
// LVP-LABEL: func.func @chunks_of_64
// LVP-SAME:    "ldsopt-matmul-lds", "statistics per chunk of the output need the output tile staged in LDS, or each chunk of 64 columns of a row in the registers of lanes of one subgroup"
// LVP:         linalg.matmul
// SPLIT-LABEL: func.func @chunks_of_64
// SPLIT-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// SPLIT:         gpu.shuffle idx
// SPLIT:         scf.if
// SPLIT-NEXT:      memref.store %{{.+}} : memref<64x2xf32
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @chunks_of_64() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x384xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<384x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %5 = hal.interface.binding.subspan layout(#layout) binding(5) alignment(64) offset(%c0) flags(Indirect) : memref<64x2xf32, #hal.descriptor_type<storage_buffer>>
  %6 = hal.interface.binding.subspan layout(#layout) binding(6) alignment(64) offset(%c0) flags(Indirect) : memref<64x2xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x384xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x384xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<384x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<384x128xf16>
  %b = iree_codegen.load_from_buffer %2 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %r = iree_codegen.load_from_buffer %3 : memref<64x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x128xf16>
  %ea = tensor.empty() : tensor<64x128xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x128xf32>) -> tensor<64x128xf32>
  %eo = tensor.empty() : tensor<64x128xf16>
  %ec = tensor.empty() : tensor<64x2xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<64x2xf32>) -> tensor<64x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x384xf16>, tensor<384x128xf16>) outs(%fa : tensor<64x128xf32>) -> tensor<64x128xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b, %r : tensor<64x128xf32>, tensor<128xf32>, tensor<64x128xf16>) outs(%eo : tensor<64x128xf16>) {
  ^bb0(%acc: f32, %bb: f32, %rr: f16, %o: f16):
    %s = arith.addf %acc, %bb : f32
    %re = arith.extf %rr : f16 to f32
    %t = arith.addf %s, %re : f32
    %y = arith.truncf %t : f32 to f16
    linalg.yield %y : f16
  } -> tensor<64x128xf16>
  %t:2 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, (n floordiv 64) * 64)>, affine_map<(m, n) -> (m, n floordiv 64)>, affine_map<(m, n) -> (m, n floordiv 64)>], iterator_types = ["parallel", "reduction"]}
      ins(%h, %h : tensor<64x128xf16>, tensor<64x128xf16>) outs(%fc, %fc : tensor<64x2xf32>, tensor<64x2xf32>) {
  ^bb0(%v: f16, %v0: f16, %s1: f32, %s2: f32):
    %a = arith.extf %v : f16 to f32
    %a0 = arith.extf %v0 : f16 to f32
    %d = arith.subf %a, %a0 : f32
    %n1 = arith.addf %s1, %d : f32
    %sq = arith.mulf %d, %d : f32
    %n2 = arith.addf %s2, %sq : f32
    linalg.yield %n1, %n2 : f32, f32
  } -> (tensor<64x2xf32>, tensor<64x2xf32>)
  iree_codegen.store_to_buffer %h, %4 : tensor<64x128xf16> into memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %t#0, %5 : tensor<64x2xf32> into memref<64x2xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %t#1, %6 : tensor<64x2xf32> into memref<64x2xf32, #hal.descriptor_type<storage_buffer>>
  return
}
