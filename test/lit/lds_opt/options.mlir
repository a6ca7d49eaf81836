// Every option takes a declared range (lds-opt --list-passes states it): a value outside it is
// an error that names the option and the range, located at the option in the pipeline, before
// any pass runs; a value past a limit of the target is an error at the dispatch. Never an
// internal error, a hang or a silently different kernel.

// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-lower-elementwise{workgroup-size=0})' 2>&1 | filecheck %s --check-prefix=ZERO
// ZERO: <pass-pipeline>:1:41: error: option 'workgroup-size' of pass 'ldsopt-lower-elementwise' takes >= 1, at most the target's threads per workgroup; got '0'
// ZERO-NOT: internal error

// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-lower-elementwise{workgroup-size=-5})' 2>&1 | filecheck %s --check-prefix=NEG
// NEG: <pass-pipeline>:1:41: error: option 'workgroup-size' of pass 'ldsopt-lower-elementwise' takes >= 1, {{.*}}; got '-5'

// The target allows 1024 threads per workgroup: 2048 is an error at the dispatch, not a kernel.
// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-lower-elementwise{workgroup-size=2048})' 2>&1 | filecheck %s --check-prefix=MAXTHREADS
// MAXTHREADS: options.mlir:50:1: error: ldsopt-lower-elementwise: option 'workgroup-size=2048' is more than the target's threads per workgroup (1024)
// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=2048})' 2>&1 | filecheck %s --check-prefix=VDTHREADS
// VDTHREADS: error: ldsopt-vector-distribute: option 'workgroup-size=2048' is more than the target's threads per workgroup (1024)
// The limit is the target's own: 1024 lowers.
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-lower-elementwise{workgroup-size=1024})' | filecheck %s --check-prefix=MAXOK
// MAXOK: workgroup_size = [1024, 1, 1]

// A negative step made a grid-stride loop that never ends.
// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{max-workgroups=-1})' 2>&1 | filecheck %s --check-prefix=GRID
// GRID: <pass-pipeline>:1:41: error: option 'max-workgroups' of pass 'ldsopt-vector-distribute' takes >= 1; got '-1'

// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-preload-transposed{workgroups-per-cu=0})' 2>&1 | filecheck %s --check-prefix=OCC
// OCC: <pass-pipeline>:1:42: error: option 'workgroups-per-cu' of pass 'ldsopt-preload-transposed' takes >= 1; got '0'

// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-split-reduction{min-chunk=0})' 2>&1 | filecheck %s --check-prefix=CHUNK
// CHUNK: <pass-pipeline>:1:39: error: option 'min-chunk' of pass 'ldsopt-split-reduction' takes >= 1; got '0'

// RUN: not lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{layout=perm<0,0>})' 2>&1 | filecheck %s --check-prefix=PERM
// PERM: <pass-pipeline>:1:34: error: option 'layout' of pass 'ldsopt-dtl-layout' takes auto, a kind (none, pad, perm, rotation) or a layout such as perm<16,8>+block_pad<512,16>; got 'perm<0,0>': DTL layout 'perm<0,0>': stride must divide block
// PERM-NOT: internal error

// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-nope)' 2>&1 | filecheck %s --check-prefix=NOPE
// NOPE: <pass-pipeline>:1:16: error: unknown ldsopt pass 'ldsopt-nope' (ldsopt passes: ldsopt-attention, ldsopt-dtl-layout,

// The ranges are listed with the options.
// RUN: lds-opt --list-passes | filecheck %s --check-prefix=LIST
// LIST: ldsopt-split-reduction:
// LIST: min-chunk: int = 4096 (>= 1)
// LIST: ldsopt-vector-distribute:
// LIST-NEXT: workgroup-size: int = 0 (>= 0, at most the target's threads per workgroup)
// LIST-NEXT: max-workgroups: int = 65535 (>= 1)
// LIST-NEXT: configs: str = user (user | all | none)

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

func.func @neg() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<64x128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x128xf32>
  %3 = tensor.empty() : tensor<64x128xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<64x128xf32>) outs(%3 : tensor<64x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.negf %in : f32
    linalg.yield %5 : f32
  } -> tensor<64x128xf32>
  iree_codegen.store_to_buffer %4, %1 : tensor<64x128xf32> into memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @neg {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

func.func @row_sum() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x256xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x256xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x256xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x256xf32>) outs(%4 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @row_sum {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
