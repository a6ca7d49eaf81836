// ldsopt-attention on the attention dispatches IREE 3.13 forms (`online_attention` from fills, then
// the normalizing generic), each taken from an e2e program (test/e2e/programs/attention) at
// executable-configurations for sm_89 (lowering configs dropped): on lavapipe the FMA kernel,
// on CUDA the mma.sync one (few query rows: FMA with the keys split over thread groups).
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=FMA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=MMA
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=WGMMA
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-attention{wgmma-overlap=true}, canonicalize, cse)' | filecheck %s --check-prefix=OVERLAP
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-attention{mma-stages=3}, canonicalize, cse)' | filecheck %s --check-prefix=OPTIONED
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-attention{wgmma=false}, canonicalize, cse)' | filecheck %s --check-prefix=NOWGMMA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-attention{mma-warps=4 mma-rows-per-warp=32 mma-stages=3 mma-lds-layout=xor}, canonicalize, cse)' | filecheck %s --check-prefix=KNOBS

// Plain, 6 (batch x heads) x 80 queries x 100 keys x 64, f16.
// The FMA kernel: 16 rows of 8 lanes (subgroups of 8 on lavapipe), each lane 8 of the head dim; K and V
// tiles of 16 keys in two LDS buffers; a score is the lanes' partial dots by a 3-step butterfly.
// FMA:       workgroup_size = [128, 1, 1] subgroup_size = 8
// FMA-LABEL: func.func @plain_f16
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// FMA-DAG:     memref.alloc() alignment = 16 : memref<2x16x64xf16, #gpu.address_space<workgroup>>
// FMA:         scf.for %{{.+}} = %c0 to %c7 step %c1 iter_args({{.*}}) -> (f32, f32, vector<4xf32>, vector<4xf32>)
// FMA:           gpu.shuffle xor %{{.+}}, %c4_i32, %c8_i32 : f32
// FMA-NEXT:      arith.addf
// FMA-NEXT:      gpu.shuffle xor %{{.+}}, %c2_i32, %c8_i32 : f32
// FMA:           math.exp2 %{{.+}} fastmath<afn> : f32
// FMA:           gpu.barrier
// FMA-NEXT:      scf.yield
// The output: the normalizing generic's body, (1 / sum) * acc and the cast to f16, rows past 80 not stored.
// FMA:         arith.divf %{{.+}}, %{{.+}} : vector<4xf32>
// FMA:         arith.truncf %{{.+}} : vector<4xf32> to vector<4xf16>
// CUDA: 6 x 80 query rows leave most of the H200's 132 SMs idle whatever the shape: each shape's
// busiest SIMD computes one row tile, and the plan takes the most rows a workgroup among them, 4
// warps of 16 (plan.busiest_simd); 64-key tiles by cp.async (16 bytes, zero-filled past the keys)
// into two XOR-swizzled LDS buffers (the bank model finds padding and the swizzle both free of
// conflicts, the swizzle in fewer bytes); the lane's swizzled columns are computed before the
// loop. S by mma.sync with two K fragments a ldmatrix.x4, P V with two V fragments a
// ldmatrix.x4.trans.
// MMA:       workgroup_size = [128, 1, 1] subgroup_size = 32
// MMA-LABEL: func.func @plain_f16
// MMA:         %[[K:.+]] = memref.alloc() alignment = 16 : memref<2x64x64xf16, #gpu.address_space<workgroup>>
// MMA:         %[[V:.+]] = memref.alloc() alignment = 16 : memref<2x64x64xf16, #gpu.address_space<workgroup>>
// MMA:         arith.xori
// MMA:         nvgpu.device_async_copy %{{.+}}, %[[K]][%c0, {{.*}}], 8, %{{.+}} bypassL1
// MMA:         nvgpu.device_async_create_group
// MMA:         scf.for %{{.+}} = %c0 to %c2 step %c1
// MMA:           nvgpu.device_async_wait %{{.+}} numGroups = 0
// MMA-NEXT:      gpu.barrier
// MMA-NOT:       arith.xori
// MMA:           %[[KB:.+]] = nvgpu.ldmatrix %[[K]][{{.*}}] numTiles = 4 transpose = false
// MMA-NEXT:      %[[KB0:.+]] = vector.extract_strided_slice %[[KB]] {{.*}}offsets = [0, 0], sizes = [2, 2]
// MMA-NEXT:      %[[KB1:.+]] = vector.extract_strided_slice %[[KB]] {{.*}}offsets = [2, 0], sizes = [2, 2]
// MMA-NEXT:      %[[S:.+]] = nvgpu.mma.sync(%{{.+}}, %[[KB0]], %{{.+}}) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-NEXT:      nvgpu.mma.sync(%{{.+}}, %[[KB1]], %[[S]]) mmaShape = [16, 8, 16]
// The row max of the raw scores across the quad of lanes sharing a row, scaled once; it moves only
// when the tile's passes it by more than 8; P = 2^(S c - m) by one fma and PTX's ex2.
// MMA:           gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : f32
// MMA:           gpu.shuffle xor %{{.+}}, %c2_i32, %c32_i32 : f32
// MMA-NEXT:      %[[TOP:.+]] = arith.maximumf
// MMA-NEXT:      %[[SCALED:.+]] = arith.mulf %[[TOP]], %[[C:.+]] : f32
// MMA-NEXT:      %[[DIFF:.+]] = arith.subf %[[SCALED]], %[[M:.+]] : f32
// MMA-NEXT:      %[[MOVED:.+]] = arith.cmpf ogt, %[[DIFF]], %{{.+}} : f32
// MMA-NEXT:      %[[KEPT:.+]] = arith.select %[[MOVED]], %[[SCALED]], %[[M]] : f32
// MMA:           %[[NEG:.+]] = arith.negf %[[KEPT]] : f32
// MMA-NEXT:      %[[X:.+]] = math.fma %{{.+}}, %[[C]], %[[NEG]] : f32
// MMA-NEXT:      llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[X]])
// O is rescaled only where a row of the warp moved its max (a warp vote).
// MMA:           %[[ANY:.+]] = llvm.call_intrinsic "llvm.nvvm.vote.any.sync"
// MMA-NEXT:      scf.if %[[ANY]]
// MMA-COUNT-8:     arith.mulf %{{.+}} : vector<2x2xf32>
// MMA:           } else {
// P from the accumulators, packed to f16, is the A operand of P V: no LDS round trip.
// MMA:           %[[P:.+]] = arith.truncf %{{.+}} : vector<8xf32> to vector<8xf16>
// MMA-NEXT:      %[[PA:.+]] = vector.shape_cast %[[P]] : vector<8xf16> to vector<4x2xf16>
// MMA:           %[[VB:.+]] = nvgpu.ldmatrix %[[V]][{{.*}}] numTiles = 4 transpose = true
// MMA-NEXT:      %[[VB0:.+]] = vector.extract_strided_slice %[[VB]]
// MMA-NEXT:      %[[VB1:.+]] = vector.extract_strided_slice %[[VB]]
// MMA-NEXT:      nvgpu.mma.sync(%[[PA]], %[[VB0]], %{{.+}}) mmaShape = [16, 8, 16]
// MMA-NEXT:      nvgpu.mma.sync(%[[PA]], %[[VB1]], %{{.+}}) mmaShape = [16, 8, 16]
// MMA-NOT:       memref.store
// MMA:           scf.yield
// The options fix the shape: 4 warps of 32 rows (two row tiles: each K and V fragment feeds two
// mma.sync), three LDS stages (two tiles' copies in flight: the wait lets the newest group pend),
// rows unpadded, 16-byte chunk c of row r at chunk c ^ (r % 8).
// KNOBS:       workgroup_size = [128, 1, 1] subgroup_size = 32
// KNOBS-LABEL: func.func @plain_f16
// KNOBS:         %[[K:.+]] = memref.alloc() alignment = 16 : memref<3x64x64xf16, #gpu.address_space<workgroup>>
// KNOBS:         arith.xori
// KNOBS:         nvgpu.device_async_create_group
// KNOBS:         nvgpu.device_async_create_group
// KNOBS:         scf.for
// KNOBS:           nvgpu.device_async_wait %{{.+}} numGroups = 1
// KNOBS-NEXT:      gpu.barrier
// KNOBS:           %[[KB:.+]] = nvgpu.ldmatrix %[[K]][%{{.+}}, %{{.+}}, %{{.+}}] numTiles = 4 transpose = false
// KNOBS-NEXT:      %[[KB0:.+]] = vector.extract_strided_slice %[[KB]]
// KNOBS-NEXT:      %[[KB1:.+]] = vector.extract_strided_slice %[[KB]]
// KNOBS-NEXT:      nvgpu.mma.sync(%{{.+}}, %[[KB0]], %{{.+}}) mmaShape = [16, 8, 16]
// KNOBS-NEXT:      nvgpu.mma.sync(%{{.+}}, %[[KB0]], %{{.+}}) mmaShape = [16, 8, 16]
// KNOBS-NEXT:      nvgpu.mma.sync(%{{.+}}, %[[KB1]], %{{.+}}) mmaShape = [16, 8, 16]
// KNOBS-NEXT:      nvgpu.mma.sync(%{{.+}}, %[[KB1]], %{{.+}}) mmaShape = [16, 8, 16]


// -----

#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// On sm_90a the wgmma kernel: one warpgroup of 64 rows (80 rows x 6 heads: few workgroups),
// 128 keys a tile; Q, K and V in LDS tiles of the 128-byte swizzle, 1024-byte aligned (2 of K
// and V), their descriptors K-major (leading offset unused) but V's (MN-major: 128 keys x 128
// bytes from one 64-column block to the next). A tile: the copies landed, fenced into the
// async proxy and published by one barrier; S by 4 wgmmas m64n128k16 (Q and K by descriptor,
// both K-major), one group, waited for; the softmax of emit_mma, the rescale of O (the warp
// vote); P packed to f16 pairs (4 x i32), settled before the fence, the register A of 8
// wgmmas m64n64k16 on V (transposed), one group, waited for.
// WGMMA:         workgroup_size = [128, 1, 1] subgroup_size = 32
// WGMMA-LABEL:   func.func @plain_f16
// WGMMA-DAG:       arith.constant 4611686293305360384 : i64
// WGMMA-DAG:       arith.constant 4611686293372403712 : i64
// WGMMA-DAG:       %[[Q:.+]] = memref.alloc() alignment = 1024 : memref<64x64xf16, #gpu.address_space<workgroup>>
// WGMMA-DAG:       %[[K:.+]] = memref.alloc() alignment = 1024 : memref<2x128x64xf16, #gpu.address_space<workgroup>>
// WGMMA:           nvgpu.device_async_copy %{{.+}}, %[[Q]][{{.*}}], 8{{.*}}bypassL1
// WGMMA:           nvgpu.device_async_copy %{{.+}}, %[[K]][%c0, {{.*}}], 8{{.*}}bypassL1
// WGMMA:           nvgpu.device_async_wait %{{.+}} numGroups = 0
// WGMMA-NEXT:      nvvm.fence.proxy <async.shared>, space = <cta>
// WGMMA-NEXT:      gpu.barrier
// WGMMA:           nvvm.wgmma.fence.aligned
// WGMMA-COUNT-4:   nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// WGMMA-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// WGMMA-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA:           llvm.call_intrinsic "llvm.nvvm.vote.any.sync"
// WGMMA:           vector.bitcast %{{.+}} : vector<8xf16> to vector<4xi32>
// WGMMA:           llvm.inline_asm has_side_effects "", "=r,0"
// WGMMA:           nvvm.wgmma.fence.aligned
// WGMMA-COUNT-8:   llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// WGMMA-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// WGMMA-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA-NOT:       nvgpu.mma.sync
// WGMMA:           return
// With `wgmma-overlap=true` (FlashAttention-3's intra-warpgroup overlap): 3 LDS tiles of K and
// V, the previous tile's P V (none here: one tile) the group after S's, S waited for with that
// one in flight, the last tile's P V after the loop.
// OVERLAP:         workgroup_size = [128, 1, 1] subgroup_size = 32
// OVERLAP-LABEL:   func.func @plain_f16
// OVERLAP-DAG:       arith.constant 4611686293305360384 : i64
// OVERLAP-DAG:       arith.constant 4611686293372403712 : i64
// OVERLAP-DAG:       %[[Q:.+]] = memref.alloc() alignment = 1024 : memref<64x64xf16, #gpu.address_space<workgroup>>
// OVERLAP-DAG:       %[[K:.+]] = memref.alloc() alignment = 1024 : memref<3x128x64xf16, #gpu.address_space<workgroup>>
// OVERLAP:           nvgpu.device_async_copy %{{.+}}, %[[Q]][{{.*}}], 8{{.*}}bypassL1
// OVERLAP:           nvgpu.device_async_copy %{{.+}}, %[[K]][%c0, {{.*}}], 8{{.*}}bypassL1
// OVERLAP:           nvgpu.device_async_wait %{{.+}} numGroups = 0
// OVERLAP-NEXT:      nvvm.fence.proxy <async.shared>, space = <cta>
// OVERLAP-NEXT:      gpu.barrier
// OVERLAP:           nvvm.wgmma.fence.aligned
// OVERLAP-COUNT-4:   nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// OVERLAP-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT:      nvvm.wgmma.wait.group.sync.aligned 1
// OVERLAP:           nvvm.wgmma.wait.group.sync.aligned 0
// OVERLAP:           llvm.call_intrinsic "llvm.nvvm.vote.any.sync"
// OVERLAP:           vector.bitcast %{{.+}} : vector<8xf16> to vector<4xi32>
// OVERLAP:           llvm.inline_asm has_side_effects "", "=r,0"
// OVERLAP:           nvvm.wgmma.fence.aligned
// OVERLAP-COUNT-8:   llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// OVERLAP-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// OVERLAP-NOT:       nvgpu.mma.sync
// OVERLAP:           return
// OPTIONED-LABEL: func.func @plain_f16
// OPTIONED-SAME:    ldsopt.wgmma_refused = "the mma-* options fix the mma.sync kernel"
// OPTIONED:         nvgpu.mma.sync
// OPTIONED-NOT:     nvvm.wgmma
// OPTIONED:         return
// NOWGMMA-LABEL: func.func @plain_f16
// NOWGMMA-SAME:    ldsopt.wgmma_refused = "wgmma=false asks for the mma.sync kernel"
// NOWGMMA:         nvgpu.mma.sync
// NOWGMMA-NOT:     nvvm.wgmma
// NOWGMMA:         return
func.func @plain_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 1.250000e-01 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x80x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x100x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x100x64xf16>
  %7 = tensor.empty() : tensor<6x80x64xf16>
  %8 = tensor.empty() : tensor<6x80x64xf32>
  %9 = tensor.empty() : tensor<6x80xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<6x80x64xf32>) -> tensor<6x80x64xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<6x80xf32>) -> tensor<6x80xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<6x80xf32>) -> tensor<6x80xf32>
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_2 : tensor<6x80x64xf16>, tensor<6x100x64xf16>, tensor<6x100x64xf16>, f16) outs(%10, %11, %12 : tensor<6x80x64xf32>, tensor<6x80xf32>, tensor<6x80xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<6x80x64xf32>, tensor<6x80xf32>, tensor<6x80xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<6x80xf32>, tensor<6x80x64xf32>) outs(%7 : tensor<6x80x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_3 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<6x80x64xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<6x80x64xf16> into memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// At head dim 128 on CUDA: 4 warps of 32 rows (FlashAttention-2's): each K and V fragment feeds two
// row tiles' products, and Q's tile, whose two row tiles' fragments would not fit the registers
// beside O and S, is copied to LDS once (the first copy group) and read by ldmatrix once a key tile.
// 2048 keys are whole tiles of 64: K's and V's copies need no bound (no zero-fill predicate).
// MMA:       workgroup_size = [128, 1, 1] subgroup_size = 32
// MMA-LABEL: func.func @plain_d128_f16
// MMA-DAG:     %[[K:.+]] = memref.alloc() alignment = 16 : memref<2x64x128xf16, #gpu.address_space<workgroup>>
// MMA-DAG:     %[[Q:.+]] = memref.alloc() alignment = 16 : memref<128x128xf16, #gpu.address_space<workgroup>>
// MMA:         nvgpu.device_async_copy %{{.+}}, %[[Q]][{{.*}}], 8 bypassL1
// MMA:         nvgpu.device_async_create_group
// MMA:         nvgpu.device_async_copy %{{.+}}, %[[K]][%c0, {{.*}}], 8 bypassL1
// MMA:         scf.for %{{.+}} = %c0 to %c32 step %c1
// MMA:           nvgpu.device_async_wait %{{.+}} numGroups = 0
// MMA-NEXT:      gpu.barrier
// MMA:           %[[QA:.+]] = nvgpu.ldmatrix %[[Q]][{{.*}}] numTiles = 4 transpose = false
// MMA:           %[[KB:.+]] = nvgpu.ldmatrix %[[K]][{{.*}}] numTiles = 4 transpose = false
// MMA-NEXT:      %[[KB0:.+]] = vector.extract_strided_slice %[[KB]]
// MMA-NEXT:      %[[KB1:.+]] = vector.extract_strided_slice %[[KB]]
// MMA-NEXT:      nvgpu.mma.sync(%[[QA]], %[[KB0]], %{{.+}}) mmaShape = [16, 8, 16]
// MMA-NEXT:      nvgpu.mma.sync(%{{.+}}, %[[KB0]], %{{.+}}) mmaShape = [16, 8, 16]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// sm_90a: two warpgroups of 64 rows (128 rows a workgroup fill the SMs), each warpgroup's Q
// descriptor 8 KiB (its 64 rows of 128 bytes) into each 64-column block; in the key loop 8
// wgmmas m64n128k16 for S (K slices 4-7 in the second column block), waited for, then P V by
// 8 m64n128k16 on V's LDS tile (2 of them).
// WGMMA:         workgroup_size = [256, 1, 1] subgroup_size = 32
// WGMMA-LABEL:   func.func @plain_d128_f16
// WGMMA-DAG:       memref.alloc() alignment = 1024 : memref<128x128xf16, #gpu.address_space<workgroup>>
// WGMMA-DAG:       memref.alloc() alignment = 1024 : memref<2x128x128xf16, #gpu.address_space<workgroup>>
// WGMMA:           arith.muli %{{.+}}, %c8192 : index
// WGMMA:           scf.for %{{.+}} = %c0 to %c16
// WGMMA-COUNT-8:     nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// WGMMA-NEXT:        nvvm.wgmma.commit.group.sync.aligned
// WGMMA-NEXT:        nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA-COUNT-8:     llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// WGMMA-NEXT:        nvvm.wgmma.commit.group.sync.aligned
// WGMMA-NEXT:        nvvm.wgmma.wait.group.sync.aligned 0
// With `wgmma-overlap=true`: 3 LDS tiles; but in the first round, the previous tile's P V on
// V's LDS tile (tile + 2) % 3 after S's group, S waited for with it in flight.
// OVERLAP:         workgroup_size = [256, 1, 1] subgroup_size = 32
// OVERLAP-LABEL:   func.func @plain_d128_f16
// OVERLAP-DAG:       memref.alloc() alignment = 1024 : memref<128x128xf16, #gpu.address_space<workgroup>>
// OVERLAP-DAG:       memref.alloc() alignment = 1024 : memref<3x128x128xf16, #gpu.address_space<workgroup>>
// OVERLAP:           arith.muli %{{.+}}, %c8192 : index
// OVERLAP:           scf.for %[[T:.+]] = %c0 to %c16
// OVERLAP-COUNT-8:     nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// OVERLAP-NEXT:        nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT:        %[[FIRST:.+]] = arith.cmpi ugt, %[[T]], %c0 : index
// OVERLAP-NEXT:        scf.if %[[FIRST]]
// OVERLAP:               arith.remui %{{.+}}, %c3 : index
// OVERLAP-COUNT-8:       llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 1;
// OVERLAP:             nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT:        nvvm.wgmma.wait.group.sync.aligned 1
func.func @plain_d128_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 8.837890e-02 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x2048x128xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x2048x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x2048x128xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<32x2048x128xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<32x2048x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<32x2048x128xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<32x2048x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<32x2048x128xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<32x2048x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<32x2048x128xf16>
  %7 = tensor.empty() : tensor<32x2048x128xf16>
  %8 = tensor.empty() : tensor<32x2048x128xf32>
  %9 = tensor.empty() : tensor<32x2048xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_2 : tensor<32x2048x128xf16>, tensor<32x2048x128xf16>, tensor<32x2048x128xf16>, f16) outs(%10, %11, %12 : tensor<32x2048x128xf32>, tensor<32x2048xf32>, tensor<32x2048xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<32x2048x128xf32>, tensor<32x2048xf32>, tensor<32x2048xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<32x2048xf32>, tensor<32x2048x128xf32>) outs(%7 : tensor<32x2048x128xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_3 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<32x2048x128xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<32x2048x128xf16> into memref<32x2048x128xf16, #hal.descriptor_type<storage_buffer>>
  return
}


// -----

// Grouped-query attention, 8 query heads over 2 K/V heads of 33 rows: IREE folds each group's
// 4 query heads into its rows (Q 2 x 132 x 128), so a workgroup's K and V tiles serve its rows of
// all 4 heads, read once per group, not repeated; the scale is read from its binding, times log2(e).
// FMA-LABEL: func.func @gqa_f16
// FMA:         %[[S:.+]] = memref.load %{{.+}}[] : memref<f16, {{.*}}>
// FMA:         arith.extf %[[S]] : f16 to f32
// FMA:         arith.mulf %{{.+}}, %cst{{.*}} : f32
// MMA-LABEL: func.func @gqa_f16
// MMA:         vector.transfer_read %{{.+}}[%block_id_y, {{.*}} : memref<2x132x128xf16, {{.*}}>, vector<2xf16>
// MMA:         nvgpu.device_async_copy %{{.+}}[%block_id_y, {{.*}}], 8, %{{.+}} bypassL1 : memref<2x70x128xf16
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @gqa_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<f16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x132x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x70x128xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x70x128xf16, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<2x132x128xf16, #hal.descriptor_type<storage_buffer>>
  %5 = iree_codegen.load_from_buffer %0 : memref<f16, #hal.descriptor_type<storage_buffer>> -> tensor<f16>
  %6 = iree_codegen.load_from_buffer %1 : memref<2x132x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x132x128xf16>
  %7 = iree_codegen.load_from_buffer %2 : memref<2x70x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x70x128xf16>
  %8 = iree_codegen.load_from_buffer %3 : memref<2x70x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x70x128xf16>
  %extracted = tensor.extract %5[] : tensor<f16>
  %9 = tensor.empty() : tensor<2x132x128xf16>
  %10 = tensor.empty() : tensor<2x132x128xf32>
  %11 = tensor.empty() : tensor<2x132xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<2x132x128xf32>) -> tensor<2x132x128xf32>
  %13 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<2x132xf32>) -> tensor<2x132xf32>
  %14 = linalg.fill ins(%cst_1 : f32) outs(%11 : tensor<2x132xf32>) -> tensor<2x132xf32>
  %15:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%6, %7, %8, %extracted : tensor<2x132x128xf16>, tensor<2x70x128xf16>, tensor<2x70x128xf16>, f16) outs(%12, %13, %14 : tensor<2x132x128xf32>, tensor<2x132xf32>, tensor<2x132xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x132x128xf32>, tensor<2x132xf32>, tensor<2x132xf32>
  %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15#2, %15#0 : tensor<2x132xf32>, tensor<2x132x128xf32>) outs(%9 : tensor<2x132x128xf16>) {
  ^bb0(%in: f32, %in_2: f32, %out: f16):
    %17 = arith.divf %cst, %in : f32
    %18 = arith.mulf %17, %in_2 : f32
    %19 = arith.truncf %18 : f32 to f16
    linalg.yield %19 : f16
  } -> tensor<2x132x128xf16>
  iree_codegen.store_to_buffer %16, %4 : tensor<2x132x128xf16> into memref<2x132x128xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// An additive f32 mask over (rows, keys), broadcast over batch and heads: read per score,
// times log2(e), added (IREE's semantics: the scores are in log2 units).
// FMA-LABEL: func.func @mask_f32
// FMA:         %[[L2E:.+]] = arith.constant 1.44269502 : f32
// FMA:         %[[M:.+]] = memref.load %{{.+}} : memref<50x60xf32, #hal.descriptor_type<storage_buffer>>
// FMA-NEXT:    %[[ML:.+]] = arith.mulf %[[M]], %[[L2E]] : f32
// FMA-NEXT:    arith.addf %{{.+}}, %[[ML]] : f32
// f32 has no mma.sync without tf32: the FMA kernel on CUDA too.
// MMA-LABEL: func.func @mask_f32
// MMA-NOT:     nvgpu.mma.sync
// MMA:         return
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// WGMMA-LABEL: func.func @mask_f32
// WGMMA-SAME:    ldsopt.wgmma_refused = "wgmma takes f16 and bf16 (f32)"
func.func @mask_f32() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 1.118030e-01 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x50x80xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x60x80xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x60x80xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<50x60xf32, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<2x50x80xf32, #hal.descriptor_type<storage_buffer>>
  %5 = iree_codegen.load_from_buffer %0 : memref<2x50x80xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x50x80xf32>
  %6 = iree_codegen.load_from_buffer %1 : memref<2x60x80xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x60x80xf32>
  %7 = iree_codegen.load_from_buffer %2 : memref<2x60x80xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x60x80xf32>
  %8 = iree_codegen.load_from_buffer %3 : memref<50x60xf32, #hal.descriptor_type<storage_buffer>> -> tensor<50x60xf32>
  %9 = tensor.empty() : tensor<2x50x80xf32>
  %10 = tensor.empty() : tensor<2x50xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x50x80xf32>) -> tensor<2x50x80xf32>
  %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x50xf32>) -> tensor<2x50xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<2x50xf32>) -> tensor<2x50xf32>
  %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%5, %6, %7, %cst_2, %8 : tensor<2x50x80xf32>, tensor<2x60x80xf32>, tensor<2x60x80xf32>, f32, tensor<50x60xf32>) outs(%11, %12, %13 : tensor<2x50x80xf32>, tensor<2x50xf32>, tensor<2x50xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x50x80xf32>, tensor<2x50xf32>, tensor<2x50xf32>
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14#2, %14#0 : tensor<2x50xf32>, tensor<2x50x80xf32>) outs(%9 : tensor<2x50x80xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %16 = arith.divf %cst, %in : f32
    %17 = arith.mulf %16, %in_3 : f32
    linalg.yield %17 : f32
  } -> tensor<2x50x80xf32>
  iree_codegen.store_to_buffer %15, %4 : tensor<2x50x80xf32> into memref<2x50x80xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// An i1 mask (IREE stores it as i8) per batch, broadcast over heads: a score is kept where the
// low bit is 1, else -inf.
// FMA-LABEL: func.func @mask_i1_bf16
// FMA:         %[[B:.+]] = arith.trunci %{{.+}} : i8 to i1
// FMA-NEXT:    arith.select %[[B]], %{{.+}}, %cst{{.*}} : f32
// MMA-LABEL: func.func @mask_i1_bf16
// MMA:         nvgpu.mma.sync({{.*}}) mmaShape = [16, 8, 16] : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>)
// MMA:         arith.trunci %{{.+}} : i8 to i1
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @mask_i1_bf16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 1.250000e-01 : bf16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x2x24x64xbf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x2x41x64xbf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x2x41x64xbf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x24x41xi8, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<2x2x24x64xbf16, #hal.descriptor_type<storage_buffer>>
  %5 = iree_codegen.load_from_buffer %0 : memref<2x2x24x64xbf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x2x24x64xbf16>
  %6 = iree_codegen.load_from_buffer %1 : memref<2x2x41x64xbf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x2x41x64xbf16>
  %7 = iree_codegen.load_from_buffer %2 : memref<2x2x41x64xbf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x2x41x64xbf16>
  %8 = iree_codegen.load_from_buffer %3 : memref<2x24x41xi8, #hal.descriptor_type<storage_buffer>> -> tensor<2x24x41xi8>
  %9 = tensor.empty() : tensor<2x2x24x64xbf16>
  %10 = tensor.empty() : tensor<2x2x24x64xf32>
  %11 = tensor.empty() : tensor<2x2x24xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<2x2x24x64xf32>) -> tensor<2x2x24x64xf32>
  %13 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<2x2x24xf32>) -> tensor<2x2x24xf32>
  %14 = linalg.fill ins(%cst_1 : f32) outs(%11 : tensor<2x2x24xf32>) -> tensor<2x2x24xf32>
  %15:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>]> ins(%5, %6, %7, %cst_2, %8 : tensor<2x2x24x64xbf16>, tensor<2x2x41x64xbf16>, tensor<2x2x41x64xbf16>, bf16, tensor<2x24x41xi8>) outs(%12, %13, %14 : tensor<2x2x24x64xf32>, tensor<2x2x24xf32>, tensor<2x2x24xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x2x24x64xf32>, tensor<2x2x24xf32>, tensor<2x2x24xf32>
  %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15#2, %15#0 : tensor<2x2x24xf32>, tensor<2x2x24x64xf32>) outs(%9 : tensor<2x2x24x64xbf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: bf16):
    %17 = arith.divf %cst, %in : f32
    %18 = arith.mulf %17, %in_3 : f32
    %19 = arith.truncf %18 : f32 to bf16
    linalg.yield %19 : bf16
  } -> tensor<2x2x24x64xbf16>
  iree_codegen.store_to_buffer %16, %4 : tensor<2x2x24x64xbf16> into memref<2x2x24x64xbf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Causal by its region (select(k2 > m, -inf, s)): the key tiles past the workgroup's last row
// are not visited (the loop ends at ceil(min(row0 + 64, 100) / 64)); the region runs only on
// tiles that reach past its first row.
// MMA-LABEL: func.func @causal_f16
// MMA:         %[[END:.+]] = arith.ceildivui %{{.+}}, %c64 : index
// MMA:         %[[N:.+]] = arith.minui %[[END]], %c2 : index
// MMA:         scf.for %{{.+}} = %c0 to %[[N]] step %c1
// MMA:           scf.if %{{.+}} -> (f32, f32, f32, f32, vector<2x2xf32>
// MMA:             arith.cmpi ugt
// MMA:           } else {
// MMA-NOT:         arith.cmpi ugt
// MMA:           }
// sm_90a: only the softmax branches on the region (f32 results: the max, sum, rescale factors
// and P); the wgmmas stay on the loop's straight line (with the overlap, the last tile's P V
// after it).
// WGMMA-LABEL: func.func @causal_f16
// WGMMA:         %[[END:.+]] = arith.ceildivui %{{.+}}, %c128 : index
// WGMMA:         scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// WGMMA-COUNT-4:   nvvm.wgmma.mma_async
// WGMMA:           nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA:           arith.cmpi uge
// WGMMA-NEXT:      scf.if %{{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32
// WGMMA:             arith.cmpi ugt
// WGMMA:           } else {
// WGMMA-NOT:         arith.cmpi ugt
// WGMMA:           }
// WGMMA-COUNT-8:   wgmma.mma_async.sync.aligned.m64n64k16
// WGMMA:           nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA:         }
// OVERLAP-LABEL: func.func @causal_f16
// OVERLAP:         %[[END:.+]] = arith.ceildivui %{{.+}}, %c128 : index
// OVERLAP:         scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// OVERLAP-COUNT-4:   nvvm.wgmma.mma_async
// OVERLAP:           nvvm.wgmma.wait.group.sync.aligned 1
// OVERLAP:           arith.cmpi uge
// OVERLAP-NEXT:      scf.if %{{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32
// OVERLAP:             arith.cmpi ugt
// OVERLAP:           } else {
// OVERLAP-NOT:         arith.cmpi ugt
// OVERLAP:           }
// OVERLAP-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// OVERLAP:         }
// OVERLAP-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16
// FMA-LABEL: func.func @causal_f16
// FMA:         arith.ceildivui %{{.+}}, %c16 : index
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @causal_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 0xFF800000 : f32
  %cst_3 = arith.constant 1.250000e-01 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %7 = tensor.empty() : tensor<2x100x64xf16>
  %8 = tensor.empty() : tensor<2x100x64xf32>
  %9 = tensor.empty() : tensor<2x100xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x100x64xf32>) -> tensor<2x100x64xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<2x100xf32>) -> tensor<2x100xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x100xf32>) -> tensor<2x100xf32>
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_3 : tensor<2x100x64xf16>, tensor<2x100x64xf16>, tensor<2x100x64xf16>, f16) outs(%10, %11, %12 : tensor<2x100x64xf32>, tensor<2x100xf32>, tensor<2x100xf32>) {
  ^bb0(%arg0: f32):
    %15 = iree_linalg_ext.index 1 : index
    %16 = iree_linalg_ext.index 4 : index
    %17 = arith.cmpi ugt, %16, %15 : index
    %18 = arith.select %17, %cst_2, %arg0 : f32
    iree_linalg_ext.yield %18 : f32
  } -> tensor<2x100x64xf32>, tensor<2x100xf32>, tensor<2x100xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<2x100xf32>, tensor<2x100x64xf32>) outs(%7 : tensor<2x100x64xf16>) {
  ^bb0(%in: f32, %in_4: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_4 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<2x100x64xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<2x100x64xf16> into memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Few rows (2 heads x 5 row tiles of 64) against three key tiles on sm_90a: one warpgroup of
// rows, and a second on the same rows taking every other key tile (two kv splits): 256
// threads, each split's two LDS tiles of K and V (4 in all), the query tiles launched in
// reverse (causal: the longest rows first), Q published by one barrier before the loop, rounds
// of two tiles, each split's met at its own named barrier, a split's tile past the visited
// ones skipped. After the loop split 1 leaves its rows' max and sum and its O in LDS
// (thread-fastest), one barrier, and split 0 alone reads them, merges them (each scaled by
// 2^(m - M)) and stores the output.
// WGMMA:         workgroup_size = [256, 1, 1] subgroup_size = 32
// WGMMA-LABEL:   func.func @causal_kv_splits_f16
// WGMMA:           %[[X:.+]] = gpu.block_id x upper_bound 5
// WGMMA-NEXT:      arith.subi %c4, %[[X]] : index
// WGMMA:           %[[SPLIT:.+]] = arith.divui %thread_id_x, %c128 : index
// WGMMA:           memref.alloc() alignment = 1024 : memref<4x128x64xf16, #gpu.address_space<workgroup>>
// WGMMA:           %[[VISITED:.+]] = arith.minui %{{.+}}, %c3 : index
// WGMMA:           nvgpu.device_async_wait %{{.+}} numGroups = 1
// WGMMA-NEXT:      nvvm.fence.proxy
// WGMMA-NEXT:      gpu.barrier
// WGMMA-NEXT:      %[[ROUNDS:.+]] = arith.ceildivui %[[VISITED]], %c2 : index
// WGMMA:           scf.for %{{.+}} = %c0 to %[[ROUNDS]] step %c1
// WGMMA:             nvgpu.device_async_wait %{{.+}} numGroups = 0
// WGMMA-NEXT:        nvvm.fence.proxy
// WGMMA-NEXT:        %[[S32:.+]] = arith.index_cast %[[SPLIT]] : index to i32
// WGMMA-NEXT:        %[[BAR:.+]] = arith.addi %[[S32]], %c1_i32 : i32
// WGMMA-NEXT:        nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// WGMMA-NOT:         gpu.barrier
// WGMMA:             %[[IN:.+]] = arith.cmpi ult, %{{.+}}, %[[VISITED]] : index
// WGMMA-NEXT:        scf.if %[[IN]]
// WGMMA-COUNT-4:       nvvm.wgmma.mma_async
// WGMMA:           %[[SLOTS:.+]] = memref.alloc() {{.*}} : memref<1x36x128xf32, #gpu.address_space<workgroup>>
// WGMMA-NEXT:      %[[OTHER:.+]] = arith.cmpi ugt, %[[SPLIT]], %c0 : index
// WGMMA-NEXT:      scf.if %[[OTHER]] {
// WGMMA-COUNT-36:    memref.store %{{.+}}, %[[SLOTS]]
// WGMMA:           gpu.barrier
// WGMMA-NEXT:      %[[FIRST:.+]] = arith.cmpi eq, %[[SPLIT]], %c0 : index
// WGMMA-NEXT:      scf.if %[[FIRST]] {
// WGMMA:             memref.load %[[SLOTS]]
// WGMMA:             arith.maximumf
// WGMMA:             llvm.nvvm.ex2.approx
// WGMMA:             vector.transfer_write
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @causal_kv_splits_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 0xFF800000 : f32
  %cst_3 = arith.constant 1.250000e-01 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x300x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x300x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x300x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x300x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x300x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x300x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x300x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x300x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x300x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x300x64xf16>
  %7 = tensor.empty() : tensor<2x300x64xf16>
  %8 = tensor.empty() : tensor<2x300x64xf32>
  %9 = tensor.empty() : tensor<2x300xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x300x64xf32>) -> tensor<2x300x64xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<2x300xf32>) -> tensor<2x300xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x300xf32>) -> tensor<2x300xf32>
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_3 : tensor<2x300x64xf16>, tensor<2x300x64xf16>, tensor<2x300x64xf16>, f16) outs(%10, %11, %12 : tensor<2x300x64xf32>, tensor<2x300xf32>, tensor<2x300xf32>) {
  ^bb0(%arg0: f32):
    %15 = iree_linalg_ext.index 1 : index
    %16 = iree_linalg_ext.index 4 : index
    %17 = arith.cmpi ugt, %16, %15 : index
    %18 = arith.select %17, %cst_2, %arg0 : f32
    iree_linalg_ext.yield %18 : f32
  } -> tensor<2x300x64xf32>, tensor<2x300xf32>, tensor<2x300xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<2x300xf32>, tensor<2x300x64xf32>) outs(%7 : tensor<2x300x64xf16>) {
  ^bb0(%in: f32, %in_4: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_4 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<2x300x64xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<2x300x64xf16> into memref<2x300x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Causal by a mask computed from its indices alone, select(k2 > m, c, 0) with c <= -1e4 (what
// ldsopt-raise-attention makes of GPT-2's constant mask): the key tiles past the workgroup's
// last row are not visited; on the tiles across the diagonal the mask is the -inf selection
// it is to the softmax, and on those below it nothing: neither branch reads or adds the mask,
// and the scale is folded (one fma a score).
// MMA-LABEL: func.func @causal_mask_f16
// MMA:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// MMA:         %[[END:.+]] = arith.ceildivui %{{.+}}, %c64 : index
// MMA:         %[[N:.+]] = arith.minui %[[END]], %c2 : index
// MMA:         scf.for %{{.+}} = %c0 to %[[N]] step %c1
// MMA:           arith.cmpi uge
// MMA-NEXT:      scf.if
// MMA:             %[[PAST:.+]] = arith.cmpi ugt
// MMA-NEXT:        arith.select %[[PAST]], %[[NEGINF]], %{{.+}} : f32
// MMA-NOT:         arith.addf %{{.+}}, %cst{{.*}} : f32
// MMA:             math.fma
// MMA:           } else {
// MMA-NOT:         arith.cmpi ugt
// MMA:             math.fma
// MMA:           }
// WGMMA-LABEL: func.func @causal_mask_f16
// WGMMA:         arith.ceildivui %{{.+}}, %c128 : index
// WGMMA-COUNT-4:   nvvm.wgmma.mma_async
// WGMMA:           arith.cmpi uge
// WGMMA-NEXT:      scf.if %{{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32
// WGMMA:             arith.cmpi ugt
// WGMMA:             math.fma
// WGMMA:           } else {
// WGMMA-NOT:         arith.cmpi ugt
// WGMMA:             math.fma
// WGMMA:           }
// FMA-LABEL: func.func @causal_mask_f16
// FMA:         arith.ceildivui %{{.+}}, %c16 : index
// FMA:         scf.for
// FMA:           arith.cmpi uge
// FMA-NEXT:      scf.if
// FMA:             arith.cmpi ugt
// FMA:           } else {
// FMA-NOT:         arith.cmpi ugt
// FMA:           }
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @causal_mask_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 0xFF800000 : f32
  %cst_3 = arith.constant 1.250000e-01 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %7 = tensor.empty() : tensor<2x100x64xf16>
  %8 = tensor.empty() : tensor<2x100x64xf32>
  %9 = tensor.empty() : tensor<2x100xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x100x64xf32>) -> tensor<2x100x64xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<2x100xf32>) -> tensor<2x100xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x100xf32>) -> tensor<2x100xf32>
  %past = arith.constant -1.000000e+04 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %e = tensor.empty() : tensor<100x100xf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<100x100xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ugt, %j, %i : index
    %m = arith.select %c, %past, %zero : f16
    linalg.yield %m : f16
  } -> tensor<100x100xf16>
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_3, %mask : tensor<2x100x64xf16>, tensor<2x100x64xf16>, tensor<2x100x64xf16>, f16, tensor<100x100xf16>) outs(%10, %11, %12 : tensor<2x100x64xf32>, tensor<2x100xf32>, tensor<2x100xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x100x64xf32>, tensor<2x100xf32>, tensor<2x100xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<2x100xf32>, tensor<2x100x64xf32>) outs(%7 : tensor<2x100x64xf16>) {
  ^bb0(%in: f32, %in_4: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_4 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<2x100x64xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<2x100x64xf16> into memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A mask of the same form whose value past the diagonal is above -1e4 (-100 is not -inf to
// a softmax) is only added: every key tile is visited.
// MMA-LABEL: func.func @causal_form_mask_kept_f16
// MMA-NOT:     arith.ceildivui
// MMA:         scf.for %{{.+}} = %c0 to %c2 step %c1
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @causal_form_mask_kept_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 0xFF800000 : f32
  %cst_3 = arith.constant 1.250000e-01 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %7 = tensor.empty() : tensor<2x100x64xf16>
  %8 = tensor.empty() : tensor<2x100x64xf32>
  %9 = tensor.empty() : tensor<2x100xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x100x64xf32>) -> tensor<2x100x64xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<2x100xf32>) -> tensor<2x100xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x100xf32>) -> tensor<2x100xf32>
  %past = arith.constant -1.000000e+02 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %e = tensor.empty() : tensor<100x100xf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<100x100xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ugt, %j, %i : index
    %m = arith.select %c, %past, %zero : f16
    linalg.yield %m : f16
  } -> tensor<100x100xf16>
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_3, %mask : tensor<2x100x64xf16>, tensor<2x100x64xf16>, tensor<2x100x64xf16>, f16, tensor<100x100xf16>) outs(%10, %11, %12 : tensor<2x100x64xf32>, tensor<2x100xf32>, tensor<2x100xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x100x64xf32>, tensor<2x100xf32>, tensor<2x100xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<2x100xf32>, tensor<2x100x64xf32>) outs(%7 : tensor<2x100x64xf16>) {
  ^bb0(%in: f32, %in_4: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_4 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<2x100x64xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<2x100x64xf16> into memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Decode: one query row (no loop of its own) against 4096 keys. The FMA kernel (also on CUDA:
// few rows) for one row (plan.direct): 8 groups of 16 lanes (8 of the head dim each: 16-byte
// reads) take the key tiles in turn, each lane reading its K and V straight into registers (the
// loop carries the next tile's; no LDS tile, no barrier in the loop), then the groups combine
// their running max, sum and accumulator through LDS.
// MMA-LABEL: func.func @decode_f16
// MMA-NOT:     gpu.barrier
// MMA:         scf.for %{{.+}} = %c0 to %c32 step %c1 iter_args({{.+}}) -> (f32, f32, vector<8xf32>, vector<8xf16>,
// MMA-NOT:     gpu.barrier
// MMA:         memref.alloc() alignment = 16 : memref<8x1x130xf32, #gpu.address_space<workgroup>>
// MMA:         gpu.barrier
// MMA:         scf.if
// MMA:           vector.transfer_write {{.*}} : vector<8xf16>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @decode_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 8.837890e-02 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x128xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x4096x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x4096x128xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x128xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x128xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x4096x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x4096x128xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x4096x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x4096x128xf16>
  %7 = tensor.empty() : tensor<2x128xf16>
  %8 = tensor.empty() : tensor<2x128xf32>
  %9 = tensor.empty() : tensor<2xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x128xf32>) -> tensor<2x128xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<2xf32>) -> tensor<2xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2xf32>) -> tensor<2xf32>
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0)>, affine_map<(d0, d1, d2, d3) -> (d0)>]> ins(%4, %5, %6, %cst_2 : tensor<2x128xf16>, tensor<2x4096x128xf16>, tensor<2x4096x128xf16>, f16) outs(%10, %11, %12 : tensor<2x128xf32>, tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x128xf32>, tensor<2xf32>, tensor<2xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%13#2, %13#0 : tensor<2xf32>, tensor<2x128xf32>) outs(%7 : tensor<2x128xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_3 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<2x128xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<2x128xf16> into memref<2x128xf16, #hal.descriptor_type<storage_buffer>>
  return
}
