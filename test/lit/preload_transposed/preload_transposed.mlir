// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-preload-transposed)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-preload-transposed)' | filecheck %s --check-prefix=GFX942

// -----

// NHWC + NCHW -> NCHW, 2x64x16x16: (h, w) collapse to one dim in every operand. A tile is
// 64 HW x 32 channels on lavapipe (half its 32 KiB LDS), 64 x 64 on gfx942. The NHWC input is
// read with vector<4> along its channels into LDS rows of 32 + 1 (lavapipe, 8-lane subgroups)
// or 64 + 1 (gfx942, the bank model's choice for 64-lane waves); barrier; each thread reads
// four HW-consecutive elements of one channel from LDS (a column) and the NCHW input straight
// from global memory, adds, and stores vector<4> along HW.
// CHECK:       #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseLowering> workgroup_size = [256, 1, 1] subgroup_size = 8>
// CHECK-LABEL: func.func @nhwc_nchw_add
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// CHECK:         %[[NHWC:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] : memref<2x16x16x64xf32, {{.+}}> into memref<2x256x64xf32, {{.+}}>
// CHECK:         %[[NCHW:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0], [1], [2, 3]] : memref<2x64x16x16xf32, {{.+}}> into memref<2x64x256xf32, {{.+}}>
// CHECK:         %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0], [1], [2, 3]]
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<64x33xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[BID:.+]] = gpu.block_id x upper_bound 16
// CHECK:         scf.for %{{.+}} = %[[BID]] to %c16 step %c16
// CHECK-NOT:       gpu.barrier
// Each thread's two blocks (512 row vectors, 256 threads): both loads before either store.
// CHECK-NOT:       scf.for
// CHECK:           %[[V:.+]] = vector.transfer_read %[[NHWC]][{{.+}}]{{.*}} : memref<2x256x64xf32, {{.+}}>, vector<4xf32>
// CHECK:           %[[V2:.+]] = vector.transfer_read %[[NHWC]][{{.+}}]{{.*}} : memref<2x256x64xf32, {{.+}}>, vector<4xf32>
// CHECK:           vector.transfer_write %[[V]], %[[LDS]][{{.+}}]{{.*}} : vector<4xf32>, memref<64x33xf32, #gpu.address_space<workgroup>>
// CHECK:           vector.transfer_write %[[V2]], %[[LDS]][{{.+}}]{{.*}} : vector<4xf32>, memref<64x33xf32, #gpu.address_space<workgroup>>
// CHECK:           gpu.barrier
// CHECK-NOT:       scf.for
// CHECK:           %[[E0:.+]] = memref.load %[[LDS]][%[[ROW:.+]], %[[CH:.+]]] : memref<64x33xf32
// CHECK:           %[[R1:.+]] = arith.addi %[[ROW]], %c1
// CHECK:           %[[E1:.+]] = memref.load %[[LDS]][%[[R1]], %[[CH]]]
// CHECK:           %[[E2:.+]] = memref.load %[[LDS]][%{{.+}}, %[[CH]]]
// CHECK:           %[[E3:.+]] = memref.load %[[LDS]][%{{.+}}, %[[CH]]]
// CHECK:           %[[COL:.+]] = vector.from_elements %[[E0]], %[[E1]], %[[E2]], %[[E3]] : vector<4xf32>
// CHECK:           %[[D:.+]] = vector.transfer_read %[[NCHW]][{{.+}}]{{.*}} : memref<2x64x256xf32, {{.+}}>, vector<4xf32>
// CHECK:           %[[S:.+]] = arith.addf %[[COL]], %[[D]] : vector<4xf32>
// CHECK:           %[[S2:.+]] = arith.addf %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK:           vector.transfer_write %[[S]], %[[OUT]][{{.+}}]{{.*}} : vector<4xf32>, memref<2x64x256xf32
// CHECK:           vector.transfer_write %[[S2]], %[[OUT]][{{.+}}]{{.*}} : vector<4xf32>, memref<2x64x256xf32
// CHECK-NOT:     linalg.generic
// CHECK:       iree_codegen.dispatch_config @nhwc_nchw_add
// CHECK:         %[[N:.+]] = arith.constant 16 : index
// CHECK:         iree_codegen.yield %[[N]],
// On gfx942 the column walk puts 8 lanes side by side along HW (128 contiguous output bytes)
// and the next 8 on the next channel: with rows of 64 + 1 the bank model finds that wave's
// column reads conflict-free.
// GFX942:      #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> workgroup_size = [256, 1, 1] subgroup_size = 64>
// GFX942-LABEL: func.func @nhwc_nchw_add
// The kernel records the bank model's price of that choice: no extra cycles for the column reads,
// 8 for the row writes (16-byte vectors, written 4 bytes at a time into rows of 65 floats).
// GFX942-SAME:   ldsopt.bank_conflicts = {input0 = {reads = 0 : i64, stores = 8 : i64}}
// GFX942:        memref.alloc() alignment = 16 : memref<64x65xf32, #gpu.address_space<workgroup>>
// GFX942:        gpu.block_id x upper_bound 8
// Each thread takes blocks thread and thread + 256, whose coordinates are the thread's plus
// constants (the second block: 32 channels on).
// GFX942:        gpu.barrier
// GFX942:          %[[T:.+]] = gpu.thread_id x
// GFX942:          %[[LO:.+]] = arith.remui %[[T]], %c8 : index
// GFX942:          %[[CH:.+]] = arith.divui %[[T]], %c8 : index
// GFX942:          %[[A0:.+]] = arith.muli %[[LO]], %c4 : index
// GFX942:          %[[HW:.+]] = arith.addi %[[A0]], %{{.+}} : index
// GFX942:          memref.load %{{.+}}[%[[HW]], %[[CH]]] : memref<64x65xf32
// GFX942:          %[[CH2:.+]] = arith.addi %{{.+}}, %c32 : index
// GFX942:          memref.load %{{.+}}[%{{.+}}, %[[CH2]]] : memref<64x65xf32
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nhwc_nchw_add() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x16x16x64xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x64x16x16xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x64x16x16xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<2x16x16x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x16x16x64xf32>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<2x64x16x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x64x16x16xf32>
  %e = tensor.empty() : tensor<2x64x16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t0, %t1 : tensor<2x16x16x64xf32>, tensor<2x64x16x16xf32>) outs(%e : tensor<2x64x16x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x64x16x16xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<2x64x16x16xf32> into memref<2x64x16x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nhwc_nchw_add {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// NHWC + NCHW -> NCHW with HW = 7x7 = 49: the tile takes all 49 of HW (one output row)
// and 64 of the 256 channels, so a workgroup still moves 12.5 KiB per operand. The channel
// reads stay vector<4>; 49 is odd, so the HW side works one element at a time.
// CHECK-LABEL: func.func @hw49_several_channels
// CHECK:         %[[NHWC:.+]] = memref.collapse_shape %{{.+}} into memref<2x49x256xf32
// CHECK:         memref.collapse_shape %{{.+}} into memref<2x256x49xf32
// The tile holds all of HW: the column walk runs over its 64 x 49 outputs as one range, in
// vectors of 4 (HW alone allows 1): NCHW and the output are read and written flattened.
// CHECK:         %[[NCHW:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0], [1, 2, 3]] : memref<2x256x7x7xf32, {{.+}}> into memref<2x12544xf32
// CHECK:         %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0], [1, 2, 3]] : memref<2x256x7x7xf32, {{.+}}> into memref<2x12544xf32
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<49x65xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.block_id x upper_bound 8
// CHECK:           %[[V:.+]] = vector.transfer_read %[[NHWC]][{{.+}}]{{.*}}, vector<4xf32>
// CHECK:           vector.transfer_write %[[V]], %[[LDS]]
// CHECK:         gpu.barrier
// CHECK:           memref.load %[[LDS]]
// CHECK:           memref.load %[[LDS]]
// CHECK:           memref.load %[[LDS]]
// CHECK:           memref.load %[[LDS]]
// CHECK:           %[[COL:.+]] = vector.from_elements {{.+}} : vector<4xf32>
// CHECK:           %[[D:.+]] = vector.transfer_read %[[NCHW]][{{.+}}]{{.*}}, vector<4xf32>
// CHECK:           %[[S:.+]] = arith.addf %[[COL]], %[[D]] : vector<4xf32>
// CHECK:           vector.transfer_write %[[S]], %[[OUT]][{{.+}}]{{.*}} : vector<4xf32>, memref<2x12544xf32
// GFX942-LABEL: func.func @hw49_several_channels
// GFX942:        memref.alloc() alignment = 16 : memref<49x67xf32, #gpu.address_space<workgroup>>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @hw49_several_channels() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x7x7x256xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x256x7x7xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x256x7x7xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<2x7x7x256xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x7x7x256xf32>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<2x256x7x7xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x256x7x7xf32>
  %e = tensor.empty() : tensor<2x256x7x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t0, %t1 : tensor<2x7x7x256xf32>, tensor<2x256x7x7xf32>) outs(%e : tensor<2x256x7x7xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x256x7x7xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<2x256x7x7xf32> into memref<2x256x7x7xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @hw49_several_channels {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A 21x1009 -> 1009x21 transpose: 1009 is prime, so tiles of 128 along it end ragged and
// every access there is guarded; 21 is taken whole.
// CHECK-LABEL: func.func @ragged_1009x21
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<21x129xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.block_id x upper_bound 8
// Ragged blocks: the loads alone are guarded (yielding zeros outside), the stores follow.
// CHECK:           %[[IN:.+]] = arith.cmpi ult, %{{.+}}, %c1009 : index
// CHECK:           %[[V:.+]] = scf.if %[[IN]] -> (vector<1xf32>) {
// CHECK:             vector.transfer_read {{.+}} : memref<21x1009xf32, {{.+}}>, vector<1xf32>
// CHECK:           scf.if %[[IN]] {
// CHECK-NEXT:        vector.transfer_write %[[V]], %[[LDS]]
// CHECK:         gpu.barrier
// CHECK:           %[[IN2:.+]] = arith.cmpi ult, %{{.+}}, %c1009 : index
// CHECK:           %[[R:.+]] = scf.if %[[IN2]] -> (vector<1xf32>) {
// CHECK:             memref.load %[[LDS]]
// CHECK:             arith.negf
// CHECK:           scf.if %[[IN2]] {
// CHECK-NEXT:        vector.transfer_write %[[R]], {{.+}} : vector<1xf32>, memref<1009x21xf32
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @ragged_1009x21() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<21x1009xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<1009x21xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<21x1009xf32, #hal.descriptor_type<storage_buffer>> -> tensor<21x1009xf32>
  %e = tensor.empty() : tensor<1009x21xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t0 : tensor<21x1009xf32>) outs(%e : tensor<1009x21xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %y = arith.negf %in0 : f32
    linalg.yield %y : f32
  } -> tensor<1009x21xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<1009x21xf32> into memref<1009x21xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @ragged_1009x21 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Two NHWC inputs -> NCHW: the output is the odd one out. The body runs in the inputs'
// order (vector<4> along channels, both inputs straight from global memory), results go
// to one LDS tile, barrier, and the output is stored from LDS columns, vector<4> along HW.
// CHECK-LABEL: func.func @output_transposed
// CHECK:         %[[A:.+]] = memref.collapse_shape %{{.+}} into memref<2x64x64xf32
// CHECK:         %[[B:.+]] = memref.collapse_shape %{{.+}} into memref<2x64x64xf32
// CHECK:         %[[OUT:.+]] = memref.collapse_shape
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<64x33xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.alloc
// CHECK:           %[[X:.+]] = vector.transfer_read %[[A]][{{.+}}]{{.*}}, vector<4xf32>
// CHECK:           %[[Y:.+]] = vector.transfer_read %[[B]][{{.+}}]{{.*}}, vector<4xf32>
// CHECK:           %[[M:.+]] = arith.mulf %[[X]], %[[Y]] : vector<4xf32>
// CHECK:           vector.transfer_write %[[M]], %[[LDS]][{{.+}}]{{.*}} : vector<4xf32>, memref<64x33xf32
// CHECK:         gpu.barrier
// CHECK:           %[[E0:.+]] = memref.load %[[LDS]][%[[HW:.+]], %[[CH:.+]]]
// CHECK:           memref.load %[[LDS]][%{{.+}}, %[[CH]]]
// CHECK:           memref.load %[[LDS]][%{{.+}}, %[[CH]]]
// CHECK:           memref.load %[[LDS]][%{{.+}}, %[[CH]]]
// CHECK:           %[[COL:.+]] = vector.from_elements %[[E0]], {{.+}} : vector<4xf32>
// CHECK:           vector.transfer_write %[[COL]], %[[OUT]][{{.+}}]{{.*}} : vector<4xf32>, memref<2x64x64xf32
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @output_transposed() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x8x8x64xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x8x8x64xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x64x8x8xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<2x8x8x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x8x8x64xf32>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<2x8x8x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x8x8x64xf32>
  %e = tensor.empty() : tensor<2x64x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t0, %t1 : tensor<2x8x8x64xf32>, tensor<2x8x8x64xf32>) outs(%e : tensor<2x64x8x8xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.mulf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<2x64x8x8xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<2x64x8x8xf32> into memref<2x64x8x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @output_transposed {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Two inputs transposed differently ((k, j, i) and (i, k, j) for an (i, j, k) output): the
// tile spans all three dims and each input has its own LDS buffer in its own order.
// CHECK-LABEL: func.func @two_transposed_differently
// CHECK:         %[[L0:.+]] = memref.alloc() alignment = 16 : memref<16x8x8xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[L1:.+]] = memref.alloc() alignment = 16 : memref<8x16x10xf32, #gpu.address_space<workgroup>>
// CHECK:           vector.transfer_write %{{.+}}, %[[L0]]
// CHECK:           vector.transfer_write %{{.+}}, %[[L1]]
// CHECK:         gpu.barrier
// CHECK:           memref.load %[[L0]]
// CHECK:           memref.load %[[L1]]
// CHECK:           arith.addf {{.+}} : vector<4xf32>
// GFX942-LABEL: func.func @two_transposed_differently
// GFX942:        memref.alloc() alignment = 16 : memref<16x12x11xf32, #gpu.address_space<workgroup>>
// GFX942:        memref.alloc() alignment = 16 : memref<8x16x12xf32, #gpu.address_space<workgroup>>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @two_transposed_differently() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x12x8xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x16x12xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<8x12x16xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<16x12x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x12x8xf32>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<8x16x12xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x16x12xf32>
  %e = tensor.empty() : tensor<8x12x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t0, %t1 : tensor<16x12x8xf32>, tensor<8x16x12xf32>) outs(%e : tensor<8x12x16xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<8x12x16xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<8x12x16xf32> into memref<8x12x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @two_transposed_differently {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A transposed input plus a bias broadcast along the output's contiguous dim: the bias is
// read straight from global memory, one element broadcast to the vector.
// CHECK-LABEL: func.func @broadcast_bias
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<64x33xf32
// CHECK:         gpu.barrier
// CHECK:           vector.from_elements
// CHECK:           %[[B:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<32xf32, #hal.descriptor_type<storage_buffer>>
// CHECK:           %[[BV:.+]] = vector.broadcast %[[B]] : f32 to vector<4xf32>
// CHECK:           arith.addf %{{.+}}, %[[BV]] : vector<4xf32>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @broadcast_bias() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x64x32xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4x32x64xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<4x64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x64x32xf32>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32xf32>
  %e = tensor.empty() : tensor<4x32x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t0, %t1 : tensor<4x64x32xf32>, tensor<32xf32>) outs(%e : tensor<4x32x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<4x32x64xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<4x32x64xf32> into memref<4x32x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @broadcast_bias {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// f16: the same kernel on vector<4xf16> (SPIR-V's widest vector); gfx942 reads 8 at a time.
// CHECK-LABEL: func.func @transpose_f16
// Rows padded by 2 halves, not 1: 32-bit aligned, so a row vector is 2 LDS writes, not 4.
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<96x66xf16, #gpu.address_space<workgroup>>
// CHECK:           vector.transfer_read {{.+}} : memref<96x128xf16, {{.+}}>, vector<4xf16>
// CHECK:         gpu.barrier
// CHECK:           vector.from_elements {{.+}} : vector<4xf16>
// GFX942-LABEL: func.func @transpose_f16
// GFX942:          vector.load {{.+}} alignment = 16 : memref<96x128xf16, {{.+}}>, vector<8xf16>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @transpose_f16() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x128xf16, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<128x96xf16, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<96x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x128xf16>
  %e = tensor.empty() : tensor<128x96xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t0 : tensor<96x128xf16>) outs(%e : tensor<128x96xf16>) {
  ^bb0(%in0: f16, %out: f16):
    %y = arith.negf %in0 : f16
    linalg.yield %y : f16
  } -> tensor<128x96xf16>
  iree_codegen.store_to_buffer %r, %bo : tensor<128x96xf16> into memref<128x96xf16, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @transpose_f16 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// i8 A^T + B: LDS rows of 32 + 4 bytes (32-bit aligned row vectors); B is read from global
// memory as it is.
// CHECK-LABEL: func.func @transpose_i8
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<256x36xi8, #gpu.address_space<workgroup>>
// CHECK:           vector.transfer_read %{{.+}} : memref<256x128xi8, {{.+}}>, vector<4xi8>
// CHECK:         gpu.barrier
// CHECK:           vector.from_elements {{.+}} : vector<4xi8>
// CHECK:           vector.transfer_read %{{.+}} : memref<128x256xi8, {{.+}}>, vector<4xi8>
// CHECK:           arith.addi {{.+}} : vector<4xi8>
// GFX942-LABEL: func.func @transpose_i8
// GFX942:        memref.alloc() alignment = 16 : memref<256x66xi8, #gpu.address_space<workgroup>>
// GFX942:          vector.load %{{.+}} alignment = 16 : memref<256x128xi8, {{.+}}>, vector<16xi8>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @transpose_i8() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x128xi8, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x256xi8, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<128x256xi8, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<256x128xi8, #hal.descriptor_type<storage_buffer>> -> tensor<256x128xi8>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<128x256xi8, #hal.descriptor_type<storage_buffer>> -> tensor<128x256xi8>
  %e = tensor.empty() : tensor<128x256xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t0, %t1 : tensor<256x128xi8>, tensor<128x256xi8>) outs(%e : tensor<128x256xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %y = arith.addi %in0, %in1 : i8
    linalg.yield %y : i8
  } -> tensor<128x256xi8>
  iree_codegen.store_to_buffer %r, %bo : tensor<128x256xi8> into memref<128x256xi8, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @transpose_i8 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// No transposed input (a broadcast is not a transpose): left to lower_elementwise.
// CHECK-LABEL: func.func @no_transpose
// CHECK-NOT:     ldsopt.lowered_by
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @no_transpose() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x64xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<16x64xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<16x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x64xf32>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t0, %t1 : tensor<16x64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<16x64xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<16x64xf32> into memref<16x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @no_transpose {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A permutation that keeps the contiguous dim ((j, i, k) for (i, j, k)): every read is
// already coalesced, nothing to stage.
// CHECK-LABEL: func.func @keeps_fastest_dim
// CHECK-NOT:     ldsopt.lowered_by
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @keeps_fastest_dim() {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x8x64xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x16x64xf32, #hal.descriptor_type<storage_buffer>>
  %bo = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<8x16x64xf32, #hal.descriptor_type<storage_buffer>>
  %t0 = iree_codegen.load_from_buffer %b0 : memref<16x8x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x8x64xf32>
  %t1 = iree_codegen.load_from_buffer %b1 : memref<8x16x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x16x64xf32>
  %e = tensor.empty() : tensor<8x16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t0, %t1 : tensor<16x8x64xf32>, tensor<8x16x64xf32>) outs(%e : tensor<8x16x64xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %y = arith.addf %in0, %in1 : f32
    linalg.yield %y : f32
  } -> tensor<8x16x64xf32>
  iree_codegen.store_to_buffer %r, %bo : tensor<8x16x64xf32> into memref<8x16x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @keeps_fastest_dim {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
