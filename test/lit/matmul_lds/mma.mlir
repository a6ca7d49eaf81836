// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s --check-prefix=MFMA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{carry-fragments=false tiles=64x64x4x4})' | filecheck %s --check-prefix=MMA
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-matmul-lds{mma=false tiles=64x64x4x4})' | filecheck %s --check-prefix=FMA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{workgroups-per-cu=1 tiles=64x64x4x4})' | filecheck %s --check-prefix=OCC1
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-matmul-lds{workgroups-per-cu=2 tiles=64x64x4x4})' | filecheck %s --check-prefix=OCC2-ROCM
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{carry-fragments=false output-lds=false tiles=64x64x4x4})' | filecheck %s --check-prefix=DIRECT
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{carry-fragments=false k-pack=2 tiles=64x64x4x4})' | filecheck %s --check-prefix=PACK
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{carry-fragments=true tiles=64x64x4x4})' | filecheck %s --check-prefix=CARRY

// NN f16, 96x160x64 (tails on M and N). The staging is the FMA path's; the product uses the
// target's matrix cores. gfx942: 4 waves of 64 in a 2x2 grid, each 2x2 MFMA 16x16x16 tiles of
// its 32x32; an A fragment (4 consecutive K) is one read from the K-contiguous LDS rows, a B
// fragment four scalar reads down N-contiguous rows (what inthread_transpose is for). B's
// fragments are read first and kept; A's one repetition at a time, each followed by its MFMAs.
// MFMA:       workgroup_size = [256, 1, 1] subgroup_size = 64
// MFMA-LABEL: func.func @nn_f16
// MFMA:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "MFMA_F32_16x16x16_F16", {{.*}} read_vector = 4 : i64, {{.*}}} : memref<2x64x40xf16, #gpu.address_space<workgroup>>
// MFMA:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], fragment = "MFMA_F32_16x16x16_F16", {{.*}} read_vector = 1 : i64, {{.*}}} : memref<2x32x72xf16, #gpu.address_space<workgroup>>
// MFMA:         %[[LO:.+]] = memref.alloc() alignment = 16 {ldsopt.output_stage = {pad = 4 : i64, vec = 4 : i64}} : memref<64x68xf32, #gpu.address_space<workgroup>>
// MFMA:         %[[LANE:.+]] = arith.remui %{{.+}}, %c64
// MFMA:         scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// MFMA:           vector.transfer_read %[[LB]]{{.*}} vector<1xf16>
// MFMA:           %[[B0:.+]] = vector.from_elements {{.*}} : vector<4xf16>
// MFMA:           %[[B1:.+]] = vector.from_elements {{.*}} : vector<4xf16>
// MFMA:           %[[A0:.+]] = vector.load %[[LA]]{{.*}} alignment = 8 : {{.*}}, vector<4xf16>
// MFMA-NEXT:      amdgpu.mfma 16x16x16 %[[A0]] * %[[B0]] + %{{.+}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// MFMA-NEXT:      amdgpu.mfma 16x16x16 %[[A0]] * %[[B1]]
// MFMA:           %[[A1:.+]] = vector.load %[[LA]]{{.*}} alignment = 8 : {{.*}}, vector<4xf16>
// MFMA-NEXT:      amdgpu.mfma 16x16x16 %[[A1]] * %[[B0]]
// MFMA-NEXT:      amdgpu.mfma 16x16x16 %[[A1]] * %[[B1]]
// MFMA:           gpu.barrier
// MFMA-NEXT:      scf.yield
// The output through LDS (an MFMA lane holds one element of a row): each lane writes its
// elements, past M and N guarded, to a 64 x (64 + 4) f32 tile; after a barrier, 16-byte rows
// leave for the output, guarded past M and N.
// MFMA:         arith.cmpi ult, %{{.+}}, %c96
// MFMA:         arith.cmpi ult, %{{.+}}, %c160
// MFMA:         vector.transfer_write %{{.+}}, %[[LO]][{{.*}} : vector<1xf32>, memref<64x68xf32, #gpu.address_space<workgroup>>
// MFMA:         gpu.barrier
// MFMA:         vector.load %[[LO]][{{.*}} alignment = 16 : memref<64x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// MFMA-NEXT:    vector.store {{.*}} alignment = 16 : memref<96x160xf32, {{.*}}>, vector<4xf32>
// CUDA sm_89: 8 warps of 32 in a 2x4 grid, each 2x2 mma.sync m16n8k16 tiles of its 32x16; A
// fragments read whole by ldmatrix (4 8x8 matrices), B's (K x N, N-contiguous in LDS) by
// ldmatrix.trans, the two N tiles' fragments by one (4 matrices, split into each tile's 2);
// rows padded by 8 (16 bytes) so the 8 rows of a matrix fall in different banks; accumulators
// 2x2, stored as pairs along N.
// MMA:       workgroup_size = [256, 1, 1] subgroup_size = 32
// Two workgroups per SM by default on CUDA: ptxas is told (PTX .minnctapersm 2) to keep the
// registers low enough for them. One asked for: no hint. The ROCm path has no such hint.
// MMA-LABEL: func.func @nn_f16
// MMA-SAME:    nvvm.minctasm = 2 : i32
// OCC1-LABEL: func.func @nn_f16
// OCC1-NOT:     nvvm.minctasm
// OCC2-ROCM-LABEL: func.func @nn_f16
// OCC2-ROCM-NOT:   nvvm.minctasm
// MMA:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "NV_MMA_SYNC_F32_16x8x16_F16", {{.*}}pad = 8 : i64, {{.*}}read_vector = 8 : i64, {{.*}}} : memref<2x64x40xf16, #gpu.address_space<workgroup>>
// MMA:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], fragment = "NV_MMA_SYNC_F32_16x8x16_F16", {{.*}}pad = 8 : i64, {{.*}}read_vector = 8 : i64, {{.*}}} : memref<2x32x72xf16, #gpu.address_space<workgroup>>
// MMA:         %[[LO:.+]] = memref.alloc() alignment = 16 {ldsopt.output_stage = {pad = 8 : i64, vec = 4 : i64}} : memref<64x72xf32, #gpu.address_space<workgroup>>
// MMA:         scf.for {{.*}} -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// MMA:           %[[BB:.+]] = nvgpu.ldmatrix %[[LB]][{{.*}}] numTiles = 4 transpose = true : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// MMA-NEXT:      %[[B:.+]] = vector.extract_strided_slice %[[BB]] offsets = [0, 0], sizes = [2, 2], strides = [1, 1] : vector<4x2xf16> to vector<2x2xf16>
// MMA-NEXT:      vector.extract_strided_slice %[[BB]] offsets = [2, 0], sizes = [2, 2], strides = [1, 1] : vector<4x2xf16> to vector<2x2xf16>
// MMA:           %[[A:.+]] = nvgpu.ldmatrix %[[LA]][{{.*}}] numTiles = 4 transpose = false : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// MMA-NEXT:      nvgpu.mma.sync(%[[A]], %[[B]], %{{.+}}) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA:         vector.shape_cast %{{.+}} : vector<2x2xf32> to vector<4xf32>
// MMA:         vector.extract_strided_slice %{{.+}} offsets = [0], sizes = [2], strides = [1] : vector<4xf32> to vector<2xf32>
// The output through LDS: pairs along N into a 64 x (64 + 8) tile (rows of 8 banks more: the
// 4 rows of a 16-lane phase of 8-byte writes fall in different banks), then 16 bytes a lane.
// MMA:         vector.store {{.*}}, %[[LO]][{{.*}} alignment = 8 : memref<64x72xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// MMA:         gpu.barrier
// MMA:         vector.load %[[LO]][{{.*}} alignment = 16 : memref<64x72xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// MMA-NEXT:    vector.store {{.*}} alignment = 16 : memref<96x160xf32, {{.*}}>, vector<4xf32>
// carry-fragments: the first K step's fragments (B's pair, A's two repetitions) are read after
// the prologue's barrier and carried into the loop; each step's first products take them, and
// the next step's are read after the step's barrier, from the tile it published.
// CARRY-LABEL: func.func @nn_f16
// CARRY:         gpu.barrier
// CARRY:         %[[BB:.+]] = nvgpu.ldmatrix {{.*}} numTiles = 4 transpose = true
// CARRY-NEXT:    %[[B0:.+]] = vector.extract_strided_slice %[[BB]] offsets = [0, 0]
// CARRY-NEXT:    %[[B1:.+]] = vector.extract_strided_slice %[[BB]] offsets = [2, 0]
// CARRY:         %[[A0:.+]] = nvgpu.ldmatrix {{.*}} numTiles = 4 transpose = false
// CARRY:         %[[A1:.+]] = nvgpu.ldmatrix {{.*}} numTiles = 4 transpose = false
// CARRY-NEXT:    scf.for {{.*}} iter_args({{.*}}, %[[CB0:.+]] = %[[B0]], %[[CB1:.+]] = %[[B1]], %[[CA0:.+]] = %[[A0]], %[[CA1:.+]] = %[[A1]]) -> ({{.*}}, vector<2x2xf16>, vector<2x2xf16>, vector<4x2xf16>, vector<4x2xf16>)
// CARRY:           nvgpu.mma.sync(%[[CA0]], %[[CB0]], {{.*}})
// CARRY-NEXT:      nvgpu.mma.sync(%[[CA0]], %[[CB1]], {{.*}})
// CARRY-NEXT:      nvgpu.mma.sync(%[[CA1]], %[[CB0]], {{.*}})
// CARRY-NEXT:      nvgpu.mma.sync(%[[CA1]], %[[CB1]], {{.*}})
// CARRY:           gpu.barrier
// CARRY:           %[[NB:.+]] = nvgpu.ldmatrix {{.*}} numTiles = 4 transpose = true
// CARRY:           nvgpu.ldmatrix {{.*}} numTiles = 4 transpose = false
// CARRY:           %[[NA1:.+]] = nvgpu.ldmatrix {{.*}} numTiles = 4 transpose = false
// CARRY-NEXT:      scf.yield {{.*}}, %[[NA1]] : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf16>, vector<2x2xf16>, vector<4x2xf16>, vector<4x2xf16>
// output-lds=false: the pairs go to the output directly, 8 bytes a lane, the alignment stated
// (LLVM cannot prove it at a dynamic column).
// DIRECT-LABEL: func.func @nn_f16
// DIRECT-NOT:     ldsopt.output_stage
// DIRECT:         scf.yield {{.*}} : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
// DIRECT-NOT:     gpu.barrier
// DIRECT:         vector.store {{.*}} alignment = 8 : memref<96x160xf32, {{.*}}>, vector<2xf32>
// With mma=false, FMA on vectors of 4 (the FMA path's 64x64 tile: M = 96 is under 128).
// FMA-LABEL: func.func @nn_f16
// FMA:         fragment = "fma 4x4"
// FMA-NOT:     amdgpu.mfma
// FMA:         vector.fma
func.func @nn_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x160xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x160xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x160xf16>
  %5 = tensor.empty() : tensor<96x160xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x160xf32>) -> tensor<96x160xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x64xf16>, tensor<64x160xf16>) outs(%6 : tensor<96x160xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<96x160xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<96x160xf32> into memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NN f32, 64x64x64: gfx942 has MFMA 16x16x4 f32 (scalar operands); CUDA takes the FMA path
// (mma.sync would round f32 to tf32).
// MFMA-LABEL: func.func @nn_f32
// MFMA:         fragment = "MFMA_F32_16x16x4_F32"
// MFMA:         amdgpu.mfma 16x16x4 %{{.+}} * %{{.+}} + %{{.+}} : f32, f32, vector<4xf32>
// MMA-LABEL:  func.func @nn_f32
// MMA:          fragment = "fma 4x4"
// MMA-NOT:      nvgpu.mma.sync
// MMA:          vector.fma
// FMA-LABEL:  func.func @nn_f32
// FMA:          vector.fma
func.func @nn_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [8, 8, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %5 = tensor.empty() : tensor<64x64xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%6 : tensor<64x64xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{reduction = [0, 0, 32], thread = [1, 4, 0], workgroup = [8, 32, 1]}>} {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %8 = arith.mulf %in, %in_0 : f32
    %9 = arith.addf %out, %8 : f32
    linalg.yield %9 : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NT f16, 96x160x64: both operands K-contiguous in LDS, so the fragment reads take two K steps
// at once (k_pack 2), their K slots fed in mma.k_order, the same for A and B so that the product
// pairs equal K: a lane's 8 slots are 8 consecutive K, one 16-byte read per row. gfx942: each
// read is split into the two steps' MFMA registers; B's kept, A's read one repetition at a time.
// MFMA-LABEL: func.func @nt_f16
// MFMA:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "MFMA_F32_16x16x16_F16", k_order = "(4,4,2):(1,8,4)", k_pack = 2 : i64, {{.*}} read_vector = 8 : i64
// MFMA:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["n", "k"], fragment = "MFMA_F32_16x16x16_F16", k_order = "(4,4,2):(1,8,4)", k_pack = 2 : i64, {{.*}} read_vector = 8 : i64
// MFMA:         scf.for
// MFMA:           %[[RB:.+]] = vector.load %[[LB]][{{.*}} alignment = 16 : memref<2x64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// MFMA-NEXT:      %[[B0:.+]] = vector.extract_strided_slice %[[RB]] offsets = [0], sizes = [4], strides = [1]
// MFMA-NEXT:      %[[B1:.+]] = vector.extract_strided_slice %[[RB]] offsets = [4], sizes = [4], strides = [1]
// MFMA:           %[[RA:.+]] = vector.load %[[LA]][{{.*}} alignment = 16 : memref<2x64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// MFMA-NEXT:      %[[A0:.+]] = vector.extract_strided_slice %[[RA]] offsets = [0], sizes = [4], strides = [1]
// MFMA-NEXT:      %[[A1:.+]] = vector.extract_strided_slice %[[RA]] offsets = [4], sizes = [4], strides = [1]
// MFMA-NEXT:      amdgpu.mfma 16x16x16 %[[A0]] * %[[B0]]
// MFMA-NEXT:      amdgpu.mfma 16x16x16 %[[A0]] * %{{.+}}
// MFMA-NEXT:      amdgpu.mfma 16x16x16 %[[A1]] * %[[B1]]
// CUDA, by default: both fragments by ldmatrix (K-contiguous, read plainly), in K's natural
// order: A's by x4, B's two N tiles at a time by x4.
// MMA-LABEL: func.func @nt_f16
// MMA:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "NV_MMA_SYNC_F32_16x8x16_F16", lds_order
// MMA-NOT:     k_pack
// MMA:         scf.for
// MMA:           nvgpu.ldmatrix %[[LB:.+]][{{.*}}] numTiles = 4 transpose = false : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// MMA:           nvgpu.ldmatrix %[[LA]][{{.*}}] numTiles = 4 transpose = false : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// MMA-NEXT:      nvgpu.mma.sync
// CUDA, k-pack=2: lane quad t's A slots 2t, 2t+1, 2t+8, 2t+9 (+ 16) of rows g and g + 8 are
// 16-byte reads of K 8t .. 8t+7, whose elements 0, 1 / 2, 3 are step 0's A registers a0 / a2
// (a1, a3 from row g+8).
// PACK-LABEL: func.func @nt_f16
// PACK:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "NV_MMA_SYNC_F32_16x8x16_F16", k_order = "(2,4,4):(1,8,2)", k_pack = 2 : i64
// PACK:         scf.for
// PACK:           %[[RB:.+]] = vector.load {{.*}} alignment = 16 : memref<2x64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// PACK-NEXT:      %[[B0:.+]] = vector.extract_strided_slice %[[RB]] offsets = [0], sizes = [4], strides = [1]
// PACK-NEXT:      vector.shape_cast %[[B0]] : vector<4xf16> to vector<2x2xf16>
// PACK:           %[[G:.+]] = vector.load %[[LA]][{{.*}} alignment = 16 : memref<2x64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// PACK:           %[[G8:.+]] = vector.load %[[LA]][{{.*}} alignment = 16 : memref<2x64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// PACK-NEXT:      vector.extract %[[G]][0]
// PACK-NEXT:      vector.extract %[[G]][1]
// PACK-NEXT:      vector.extract %[[G8]][0]
// PACK-NEXT:      vector.extract %[[G8]][1]
// PACK-NEXT:      vector.extract %[[G]][2]
// PACK:           nvgpu.mma.sync
func.func @nt_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<160x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<160x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<160x64xf16>
  %5 = tensor.empty() : tensor<96x160xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x160xf32>) -> tensor<96x160xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x64xf16>, tensor<160x64xf16>) outs(%6 : tensor<96x160xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<96x160xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<96x160xf32> into memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  return
}
