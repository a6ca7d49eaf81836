// lds-opt takes mlir-opt's everyday flags with their meaning, spelt as LLVM's command line
// allows (one dash or two), matched exactly; where iree-opt does the same, both are checked.

// --allow-unregistered-dialect; without it MLIR's error, the line and a caret, as iree-opt.
// RUN: lds-opt %s --allow-unregistered-dialect | filecheck %s --check-prefix=UNREG
// RUN: %iree-opt %s --allow-unregistered-dialect | filecheck %s --check-prefix=UNREG
// UNREG: "foo.use"(%cst) : (tensor<4xf32>) -> ()
// RUN: not lds-opt %s 2> %t.lds
// RUN: not %iree-opt %s 2> %t.iree
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=CARET < %t.lds
// CARET:      mlir_flags.mlir:{{[0-9]+}}:12: error: operation being parsed with an unregistered dialect.
// CARET-NEXT: {{^}}  "foo.use"(%0) : (tensor<4xf32>) -> (){{$}}
// CARET-NEXT: {{^}}           ^{{$}}

// --mlir-elide-elementsattrs-if-larger=N, --mlir-print-op-generic, --mlir-print-debuginfo on the
// output: byte for byte iree-opt's.
// RUN: lds-opt %s -allow-unregistered-dialect -mlir-elide-elementsattrs-if-larger=2 > %t.lds
// RUN: %iree-opt %s -allow-unregistered-dialect -mlir-elide-elementsattrs-if-larger=2 > %t.iree
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=ELIDE < %t.lds
// ELIDE: arith.constant dense_resource<__elided__> : tensor<4xf32>
// RUN: lds-opt %s --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=4 | filecheck %s --check-prefix=KEEP
// KEEP: arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// RUN: lds-opt %s --allow-unregistered-dialect --mlir-print-op-generic > %t.lds
// RUN: %iree-opt %s --allow-unregistered-dialect --mlir-print-op-generic > %t.iree
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=GENERIC < %t.lds
// GENERIC: "arith.constant"() <{value = dense<{{.*}}> : tensor<4xf32>}> : () -> tensor<4xf32>
// RUN: lds-opt %s --allow-unregistered-dialect --mlir-print-debuginfo > %t.lds
// RUN: %iree-opt %s --allow-unregistered-dialect --mlir-print-debuginfo > %t.iree
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=DEBUGINFO < %t.lds
// DEBUGINFO: "foo.use"(%cst) : (tensor<4xf32>) -> () loc(#[[LOC:loc[0-9]*]])
// DEBUGINFO: #[[LOC]] = loc("{{.*}}mlir_flags.mlir":{{[0-9]+}}:3)

// One dash or two, -p for --pass-pipeline; a flag is never read as a longer one it begins.
// RUN: lds-opt %s -allow-unregistered-dialect -split-input-file -pass-pipeline='builtin.module(cse)' -mlir-print-ir-after=cse 2>&1 >/dev/null | filecheck %s --check-prefix=DASH
// RUN: lds-opt %s -allow-unregistered-dialect -p 'builtin.module(cse)' -mlir-print-ir-after=cse 2>&1 >/dev/null | filecheck %s --check-prefix=DASH
// DASH: // -----// IR Dump After CSEPass: cse //----- //
// RUN: not lds-opt %s --split-input 2>&1 | filecheck %s --check-prefix=ABBREV
// RUN: not lds-opt %s --allow-unregistered 2>&1 | filecheck %s --check-prefix=ABBREV
// ABBREV: lds-opt: error: unrecognized arguments: --

// --mlir-disable-threading without a pipeline: the module as parsed.
// RUN: lds-opt %s --allow-unregistered-dialect --mlir-disable-threading | filecheck %s --check-prefix=UNREG

// A bare boolean pass option is true, as MLIR reads it; a bare option of another type is an error.
// RUN: lds-opt %s --allow-unregistered-dialect -p 'builtin.module(ldsopt-inthread-transpose{force})' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=BARE
// BARE: builtin.module(ldsopt-inthread-transpose{{{.*}} force=true {{.*}}})
// RUN: not lds-opt %s -p 'builtin.module(ldsopt-lower-elementwise{workgroup-size})' 2>&1 | filecheck %s --check-prefix=BAREINT
// BAREINT:      <pass-pipeline>:1:41: error: option 'workgroup-size' has no value (write name=value)
// BAREINT-NEXT: builtin.module(ldsopt-lower-elementwise{workgroup-size})
// BAREINT-NEXT: {{^}}                                        ^{{$}}

// --version and --show-dialects (the same dialects as iree-opt of the same wheel).
// RUN: lds-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: lds-opt (ldsopt {{[0-9.]+}}), on IREE's MLIR Python bindings (iree-base-compiler 3.13.0)
// RUN: lds-opt --show-dialects > %t.lds
// RUN: %iree-opt --show-dialects > %t.iree
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=DIALECTS < %t.lds
// DIALECTS: Available Dialects: {{.*}}arith,{{.*}}iree_gpu,{{.*}}linalg,{{.*}}vector

func.func @f() {
  %0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  "foo.use"(%0) : (tensor<4xf32>) -> ()
  return
}
