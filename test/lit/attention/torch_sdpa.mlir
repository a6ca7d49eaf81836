// ldsopt-attention on the attention dispatches IREE 3.13 forms for PyTorch exports of
// scaled_dot_product_attention (through iree-turbine and IREE's torch input pipeline), each taken
// from a real export at executable-configurations (lowering configs dropped): Q, K and V as slices
// of one binding, masks computed inside the dispatch, V held keys innermost, the normalized output
// copied into [B, S, H, D] order. IREE cannot compile these for Vulkan; ldsopt takes them.
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=FMA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=MMA

// torch.nn.MultiheadAttention (batch_first, 2 heads of 8, 2 x 5 tokens), Vulkan's form: Q, K and V
// are static slices [i, 0, 0, 0, 0] of the packed in_proj result [3, S, B, H, D] in one binding;
// the kernel reads each through a subview of the binding.
// FMA-LABEL: func.func @mha_f32
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// FMA:         %[[QKV:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<3x5x2x2x8xf32, strided<[160, 32, 16, 8, 1], offset: ?>
// FMA-DAG:     %[[Q:.+]] = memref.subview %[[QKV]][0, 0, 0, 0, 0] [1, 5, 2, 2, 8] [1, 1, 1, 1, 1] {{.*}} to memref<5x2x2x8xf32, strided<[32, 16, 8, 1], offset: ?>
// FMA-DAG:     %[[K:.+]] = memref.subview %[[QKV]][1, 0, 0, 0, 0] [1, 5, 2, 2, 8]
// FMA-DAG:     %[[V:.+]] = memref.subview %[[QKV]][2, 0, 0, 0, 0] [1, 5, 2, 2, 8]
// FMA-DAG:     %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<5x2x2x8xf32
// FMA:         vector.transfer_read %[[Q]][
// FMA:         vector.transfer_read %[[K]][
// FMA:         vector.transfer_read %[[V]][
// FMA:         vector.transfer_write %{{.+}}, %[[OUT]][
// FMA-NOT:     iree_linalg_ext.online_attention
func.func @mha_f32() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c2560 = arith.constant 2560 : index
  %cst_2 = arith.constant 0.353553385 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c2560) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x8xf32>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5x2x2x8xf32>>
  %2 = tensor.empty() : tensor<5x2x2x8xf32>
  %3 = tensor.empty() : tensor<2x2x5x8xf32>
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [2, 0, 0, 0, 0], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x8xf32>> -> tensor<5x2x2x8xf32>
  %5 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [1, 0, 0, 0, 0], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x8xf32>> -> tensor<5x2x2x8xf32>
  %6 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0, 0, 0], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x8xf32>> -> tensor<5x2x2x8xf32>
  %7 = tensor.empty() : tensor<2x2x5x8xf32>
  %8 = tensor.empty() : tensor<2x2x5xf32>
  %9 = linalg.fill ins(%cst_1 : f32) outs(%7 : tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  %10 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<2x2x5xf32>) -> tensor<2x2x5xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x2x5xf32>) -> tensor<2x2x5xf32>
  %12:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>]> ins(%6, %5, %4, %cst_2 : tensor<5x2x2x8xf32>, tensor<5x2x2x8xf32>, tensor<5x2x2x8xf32>, f32) outs(%9, %10, %11 : tensor<2x2x5x8xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x2x5x8xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12#2, %12#0 : tensor<2x2x5xf32>, tensor<2x2x5x8xf32>) outs(%3 : tensor<2x2x5x8xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_3 : f32
    linalg.yield %16 : f32
  } -> tensor<2x2x5x8xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x2x5x8xf32>) outs(%2 : tensor<5x2x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<5x2x2x8xf32>
  iree_tensor_ext.dispatch.tensor.store %14, %1, offsets = [0, 0, 0, 0], sizes = [5, 2, 2, 8], strides = [1, 1, 1, 1] : tensor<5x2x2x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5x2x2x8xf32>>
  return
}
// -----

// A transformers BertModel (attn_implementation="sdpa", f32, 2 heads of 16, 7 tokens), Vulkan's
// form: Q, K and V whole tensors at offsets in one binding, V held keys innermost ([H, D, S]: IREE
// moved the head transpose into V's producer), an i8 mask computed from indices alone
// ((row % 7) >= 0), the output copied into [S, H, D] order. V's tile is read along the keys (7 of
// them: scalars) and stored transposed into the [key, value dim] LDS tile; the mask is the
// generic's body at each score's indices.
// FMA-LABEL: func.func @bert_f32
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// FMA:         %[[V:.+]] = hal.interface.binding.subspan {{.*}} offset(%c2688) {{.*}} : memref<2x16x7xf32
// FMA:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<7x2x16xf32
// FMA:         memref.alloc() alignment = 16 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
// FMA-NEXT:    %[[VT:.+]] = memref.alloc() alignment = 16 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
// FMA:         vector.transfer_read %[[V]][%{{.+}}, %[[N:[0-9]+]], %[[KEY:[0-9]+]]], {{.*}} vector<1xf32>
// FMA:         memref.store %{{.+}}, %[[VT]][%c0, %[[KEY]], %[[N]]]
// FMA:         arith.remsi %{{.+}}, %c7 : index
// FMA-NEXT:    arith.index_cast
// FMA-NEXT:    arith.cmpi sge
// FMA-NEXT:    arith.select
// FMA:         vector.transfer_write %{{.+}}, %[[OUT]][%{{.+}}, %block_id_y, %{{.+}}]
// FMA-NOT:     linalg.generic
func.func @bert_f32() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c3584 = arith.constant 3584 : index
  %c2688 = arith.constant 2688 : index
  %c896 = arith.constant 896 : index
  %c1792 = arith.constant 1792 : index
  %c7 = arith.constant 7 : index
  %c0_i64 = arith.constant 0 : i64
  %cst_2 = arith.constant 2.500000e-01 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c1792) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x7x16xf32>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c896) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x7x16xf32>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c2688) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x16x7xf32>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c3584) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<7x2x16xf32>>
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [2, 7, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x7x16xf32>> -> tensor<2x7x16xf32>
  %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0, 0], sizes = [2, 7, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x7x16xf32>> -> tensor<2x7x16xf32>
  %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0, 0], sizes = [2, 16, 7], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x16x7xf32>> -> tensor<2x16x7xf32>
  %7 = tensor.empty() : tensor<2x7x7xi8>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%7 : tensor<2x7x7xi8>) {
  ^bb0(%out: i8):
    %19 = linalg.index 1 : index
    %20 = arith.remsi %19, %c7 : index
    %21 = arith.index_cast %20 : index to i64
    %22 = arith.cmpi sge, %21, %c0_i64 : i64
    %23 = arith.extui %22 : i1 to i8
    linalg.yield %23 : i8
  } -> tensor<2x7x7xi8>
  %9 = tensor.empty() : tensor<2x7x16xf32>
  %10 = tensor.empty() : tensor<2x7x16xf32>
  %11 = tensor.empty() : tensor<2x7xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<2x7x16xf32>) -> tensor<2x7x16xf32>
  %13 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<2x7xf32>) -> tensor<2x7xf32>
  %14 = linalg.fill ins(%cst_1 : f32) outs(%11 : tensor<2x7xf32>) -> tensor<2x7xf32>
  %15:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_2, %8 : tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<2x16x7xf32>, f32, tensor<2x7x7xi8>) outs(%12, %13, %14 : tensor<2x7x16xf32>, tensor<2x7xf32>, tensor<2x7xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x7x16xf32>, tensor<2x7xf32>, tensor<2x7xf32>
  %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15#2, %15#0 : tensor<2x7xf32>, tensor<2x7x16xf32>) outs(%9 : tensor<2x7x16xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %19 = arith.divf %cst, %in : f32
    %20 = arith.mulf %19, %in_3 : f32
    linalg.yield %20 : f32
  } -> tensor<2x7x16xf32>
  %17 = tensor.empty() : tensor<7x2x16xf32>
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%16 : tensor<2x7x16xf32>) outs(%17 : tensor<7x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<7x2x16xf32>
  iree_tensor_ext.dispatch.tensor.store %18, %3, offsets = [0, 0, 0], sizes = [7, 2, 16], strides = [1, 1, 1] : tensor<7x2x16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<7x2x16xf32>>
  return
}
// -----

// Packed QKV self-attention with a padding mask (f16, 2 heads of 64, 2 x 80 tokens), CUDA's form:
// Q, K and V are IREE's subviews of one binding loaded whole, the mask the broadcast of a loaded
// [B, S] tensor (the generic's input read at the score's batch and key), the output copied into
// [B, S, H, D] order. On CUDA the mma.sync kernel copies K and V from the subviews by cp.async.
// FMA-LABEL: func.func @packed_mask_f16
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MMA-LABEL: func.func @packed_mask_f16
// MMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MMA:         %[[M:.+]] = hal.interface.binding.subspan {{.*}} offset(%c245760) {{.*}} : memref<2x80xf16
// MMA:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<2x80x2x64xf16
// MMA-DAG:     %[[V:.+]] = memref.subview %{{.+}}[2, 0, 0, 0, 0] [1, 2, 2, 80, 64]
// MMA-DAG:     %[[K:.+]] = memref.subview %{{.+}}[1, 0, 0, 0, 0] [1, 2, 2, 80, 64]
// MMA-DAG:     %[[Q:.+]] = memref.subview %{{.+}}[0, 0, 0, 0, 0] [1, 2, 2, 80, 64]
// MMA:         vector.transfer_read %[[Q]][
// MMA-DAG:     %[[KG:.+]] = memref.memory_space_cast %[[K]]
// MMA-DAG:     %[[VG:.+]] = memref.memory_space_cast %[[V]]
// MMA:         nvgpu.device_async_copy %[[KG]][
// MMA:         nvgpu.device_async_copy %[[VG]][
// MMA:         scf.for
// MMA:           nvgpu.mma.sync
// MMA:           %[[MV:.+]] = memref.load %[[M]][%{{.+}}, %{{.+}}] : memref<2x80xf16
// MMA-NEXT:      arith.extf %[[MV]] : f16 to f32
// MMA:         vector.transfer_write %{{.+}}, %[[OUT]][
func.func @packed_mask_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c245760 = arith.constant 245760 : index
  %c122880 = arith.constant 122880 : index
  %cst_2 = arith.constant 1.250000e-01 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c122880) flags("ReadOnly|Indirect") : memref<3x2x2x80x64xf16, strided<[20480, 10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c245760) flags("ReadOnly|Indirect") : memref<2x80xf16, strided<[80, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x80x2x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %1 : memref<2x80xf16, strided<[80, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x80xf16>
  %4 = tensor.empty() : tensor<2x80x2x64xf16>
  %5 = tensor.empty() : tensor<2x2x80x64xf16>
  %6 = tensor.empty() : tensor<2x2x80x80xf16>
  %subview = memref.subview %0[2, 0, 0, 0, 0] [1, 2, 2, 80, 64] [1, 1, 1, 1, 1] : memref<3x2x2x80x64xf16, strided<[20480, 10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<2x2x80x64xf16, strided<[10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %7 = iree_codegen.load_from_buffer %subview : memref<2x2x80x64xf16, strided<[10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x2x80x64xf16>
  %subview_3 = memref.subview %0[1, 0, 0, 0, 0] [1, 2, 2, 80, 64] [1, 1, 1, 1, 1] : memref<3x2x2x80x64xf16, strided<[20480, 10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<2x2x80x64xf16, strided<[10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %8 = iree_codegen.load_from_buffer %subview_3 : memref<2x2x80x64xf16, strided<[10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x2x80x64xf16>
  %subview_4 = memref.subview %0[0, 0, 0, 0, 0] [1, 2, 2, 80, 64] [1, 1, 1, 1, 1] : memref<3x2x2x80x64xf16, strided<[20480, 10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<2x2x80x64xf16, strided<[10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %9 = iree_codegen.load_from_buffer %subview_4 : memref<2x2x80x64xf16, strided<[10240, 5120, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x2x80x64xf16>
  %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<2x80xf16>) outs(%6 : tensor<2x2x80x80xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x2x80x80xf16>
  %11 = tensor.empty() : tensor<2x2x80x64xf32>
  %12 = tensor.empty() : tensor<2x2x80xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%11 : tensor<2x2x80x64xf32>) -> tensor<2x2x80x64xf32>
  %14 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<2x2x80xf32>) -> tensor<2x2x80xf32>
  %15 = linalg.fill ins(%cst_1 : f32) outs(%12 : tensor<2x2x80xf32>) -> tensor<2x2x80xf32>
  %16:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>]> ins(%9, %8, %7, %cst_2, %10 : tensor<2x2x80x64xf16>, tensor<2x2x80x64xf16>, tensor<2x2x80x64xf16>, f32, tensor<2x2x80x80xf16>) outs(%13, %14, %15 : tensor<2x2x80x64xf32>, tensor<2x2x80xf32>, tensor<2x2x80xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x2x80x64xf32>, tensor<2x2x80xf32>, tensor<2x2x80xf32>
  %17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16#2, %16#0 : tensor<2x2x80xf32>, tensor<2x2x80x64xf32>) outs(%5 : tensor<2x2x80x64xf16>) {
  ^bb0(%in: f32, %in_5: f32, %out: f16):
    %19 = arith.divf %cst, %in : f32
    %20 = arith.mulf %19, %in_5 : f32
    %21 = arith.truncf %20 : f32 to f16
    linalg.yield %21 : f16
  } -> tensor<2x2x80x64xf16>
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17 : tensor<2x2x80x64xf16>) outs(%4 : tensor<2x80x2x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x80x2x64xf16>
  iree_codegen.store_to_buffer %18, %2 : tensor<2x80x2x64xf16> into memref<2x80x2x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
// -----

// A BERT-like module's three projections (f16, 2 heads of 64, 2 x 80 tokens), CUDA's form: Q, K and
// V whole [B, S, H, D] tensors at offsets in one binding, the output copied into [B, S, H, D]
// order: the mma.sync kernel stores it there, no generic left.
// MMA-LABEL: func.func @separate_f16
// MMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MMA:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<2x80x2x64xf16
// MMA:         nvgpu.mma.sync
// MMA:         vector.transfer_write %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] {{.*}} : vector<2xf16>
// MMA-NOT:     linalg.generic
func.func @separate_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c204800 = arith.constant 204800 : index
  %c163840 = arith.constant 163840 : index
  %c122880 = arith.constant 122880 : index
  %cst_2 = arith.constant 1.250000e-01 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c122880) flags("ReadOnly|Indirect") : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c163840) flags("ReadOnly|Indirect") : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c204800) flags("ReadOnly|Indirect") : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x80x2x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x80x2x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x80x2x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x80x2x64xf16>
  %7 = tensor.empty() : tensor<2x80x2x64xf16>
  %8 = tensor.empty() : tensor<2x2x80x64xf16>
  %9 = tensor.empty() : tensor<2x2x80x64xf32>
  %10 = tensor.empty() : tensor<2x2x80xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x2x80x64xf32>) -> tensor<2x2x80x64xf32>
  %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x2x80xf32>) -> tensor<2x2x80xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<2x2x80xf32>) -> tensor<2x2x80xf32>
  %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>]> ins(%4, %5, %6, %cst_2 : tensor<2x80x2x64xf16>, tensor<2x80x2x64xf16>, tensor<2x80x2x64xf16>, f32) outs(%11, %12, %13 : tensor<2x2x80x64xf32>, tensor<2x2x80xf32>, tensor<2x2x80xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x2x80x64xf32>, tensor<2x2x80xf32>, tensor<2x2x80xf32>
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14#2, %14#0 : tensor<2x2x80xf32>, tensor<2x2x80x64xf32>) outs(%8 : tensor<2x2x80x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %17 = arith.divf %cst, %in : f32
    %18 = arith.mulf %17, %in_3 : f32
    %19 = arith.truncf %18 : f32 to f16
    linalg.yield %19 : f16
  } -> tensor<2x2x80x64xf16>
  %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<2x2x80x64xf16>) outs(%7 : tensor<2x80x2x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x80x2x64xf16>
  iree_codegen.store_to_buffer %16, %3 : tensor<2x80x2x64xf16> into memref<2x80x2x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// The same with V held keys innermost ([B, H, D, S], as IREE forms BERT-base's V on CUDA): the
// mma.sync kernel copies V^T as it is into [value dim, keys] LDS tiles, cp.async along the keys,
// and reads its B fragments plainly, like K's (one fragment a ldmatrix.x2), not .trans.
// MMA-LABEL: func.func @v_keys_inner_f16
// MMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MMA:         %[[VG:.+]] = hal.interface.binding.subspan {{.*}} offset(%c204800) {{.*}} : memref<2x2x64x80xf16
// MMA:         memref.alloc() alignment = 16 : memref<2x64x64xf16, #gpu.address_space<workgroup>>
// MMA-NEXT:    %[[VT:.+]] = memref.alloc() alignment = 16 : memref<2x64x64xf16, #gpu.address_space<workgroup>>
// MMA:         %[[VSRC:.+]] = memref.memory_space_cast %[[VG]]
// MMA:         nvgpu.device_async_copy %[[VSRC]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], %[[VT]][
// MMA:         scf.for
// MMA:           nvgpu.ldmatrix %[[VT]][{{.*}}] numTiles = 2 transpose = false
// MMA-NOT:       transpose = true
// MMA:           scf.yield
func.func @v_keys_inner_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c204800 = arith.constant 204800 : index
  %c163840 = arith.constant 163840 : index
  %c122880 = arith.constant 122880 : index
  %cst_2 = arith.constant 1.250000e-01 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c122880) flags("ReadOnly|Indirect") : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c163840) flags("ReadOnly|Indirect") : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c204800) flags("ReadOnly|Indirect") : memref<2x2x64x80xf16, strided<[10240, 5120, 80, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x80x2x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x80x2x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x80x2x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x2x64x80xf16, strided<[10240, 5120, 80, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x2x64x80xf16>
  %7 = tensor.empty() : tensor<2x80x2x64xf16>
  %8 = tensor.empty() : tensor<2x2x80x64xf16>
  %9 = tensor.empty() : tensor<2x2x80x64xf32>
  %10 = tensor.empty() : tensor<2x2x80xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x2x80x64xf32>) -> tensor<2x2x80x64xf32>
  %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x2x80xf32>) -> tensor<2x2x80xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<2x2x80xf32>) -> tensor<2x2x80xf32>
  %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>]> ins(%4, %5, %6, %cst_2 : tensor<2x80x2x64xf16>, tensor<2x80x2x64xf16>, tensor<2x2x64x80xf16>, f32) outs(%11, %12, %13 : tensor<2x2x80x64xf32>, tensor<2x2x80xf32>, tensor<2x2x80xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x2x80x64xf32>, tensor<2x2x80xf32>, tensor<2x2x80xf32>
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14#2, %14#0 : tensor<2x2x80xf32>, tensor<2x2x80x64xf32>) outs(%8 : tensor<2x2x80x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %17 = arith.divf %cst, %in : f32
    %18 = arith.mulf %17, %in_3 : f32
    %19 = arith.truncf %18 : f32 to f16
    linalg.yield %19 : f16
  } -> tensor<2x2x80x64xf16>
  %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<2x2x80x64xf16>) outs(%7 : tensor<2x80x2x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x80x2x64xf16>
  iree_codegen.store_to_buffer %16, %3 : tensor<2x80x2x64xf16> into memref<2x80x2x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
