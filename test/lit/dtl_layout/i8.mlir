// RUN: lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{tiles=128x128x8x8}, ldsopt-matmul-lds)' | filecheck %s --check-prefix=GFX
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{tiles=128x128x8x8}, ldsopt-matmul-lds)' | filecheck %s --check-prefix=CUDA

// NN i8 x i8 -> i32, 128x128x128, both operands copied global -> LDS without registers in their
// global order. gfx942: lanes of 4 bytes (its only DMA size): 4 i8, `amdgpu.gather_to_lds` of
// vector<4xi8>, so no 1-byte DMA (which would zero-extend each byte to 4 in LDS).
// GFX-LABEL: func.func @nn_i8
// GFX-SAME:    ldsopt.dtl = {A = "direct {{.+}}", B = "direct {{.+}}"}
// GFX-SAME:    ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// GFX:         memref.alloc() alignment = 16 {ldsopt.staging = {copy = "direct", dims = ["m", "k"], fragment = "MFMA_I32_16x16x32_I8", {{.*}} vector = 4 : i64}} : memref<2x8192xi8, #gpu.address_space<workgroup>>
// GFX:         amdgpu.gather_to_lds {{.*}} : vector<4xi8>, memref<128x128xi8, #amdgpu.address_space<fat_raw_buffer>>, memref<2x8192xi8, #gpu.address_space<workgroup>>
// GFX:         scf.for
// GFX:           amdgpu.gather_to_lds {{.*}} : vector<4xi8>
// GFX:           amdgpu.mfma 16x16x32 {{.*}} : vector<8xi8>, vector<8xi8>, vector<4xi32>
// On CUDA, 16-byte cp.async lanes, 16 i8 each.
// CUDA-LABEL: func.func @nn_i8
// CUDA-SAME:    ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// CUDA:         memref.alloc() alignment = 16 {ldsopt.staging = {copy = "direct", dims = ["m", "k"], fragment = "NV_MMA_SYNC_I32_16x8x32_I8", {{.*}} vector = 16 : i64}} : memref<2x8192xi8, #gpu.address_space<workgroup>>
// CUDA:         nvgpu.device_async_copy {{.*}}, 16 bypassL1 : memref<128x128xi8, #gpu.address_space<global>> to memref<2x8192xi8, #gpu.address_space<workgroup>>
// CUDA:         scf.for
// CUDA:           nvgpu.device_async_copy {{.*}}, 16 bypassL1 : memref<128x128xi8
// CUDA:           nvgpu.mma.sync({{.*}}) mmaShape = [16, 8, 32]
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nn_i8() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x128xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x128xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<128x128xi32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<128x128xi8, #hal.descriptor_type<storage_buffer>> -> tensor<128x128xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<128x128xi8, #hal.descriptor_type<storage_buffer>> -> tensor<128x128xi8>
  %e = tensor.empty() : tensor<128x128xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<128x128xi32>) -> tensor<128x128xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<128x128xi8>, tensor<128x128xi8>) outs(%z : tensor<128x128xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<128x128xi32>
  iree_codegen.store_to_buffer %r, %2 : tensor<128x128xi32> into memref<128x128xi32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nn_i8 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
