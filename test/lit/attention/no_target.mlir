// Without a #iree_gpu.target around it and without --target, the pass cannot choose and says so.
// RUN: lds-opt %s --verify-diagnostics --pass-pipeline='builtin.module(ldsopt-attention)'

#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// expected-error @+1 {{ldsopt-attention: no GPU target for this dispatch}}
func.func @no_target() {
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
