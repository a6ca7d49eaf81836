// lds-opt's IR printing flags mean what they mean to mlir-opt: on a pipeline of MLIR passes,
// lds-opt prints to stderr exactly what iree-opt prints (diffed), threads off where the order
// of functions would otherwise vary. ldsopt passes are printed the same way, with their options.

// --mlir-print-ir-after=PASS prints after that pass only (not read as --mlir-print-ir-after-all).
// RUN: lds-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --mlir-print-ir-after=cse 2> %t.lds > /dev/null
// RUN: %iree-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --mlir-print-ir-after=cse 2> %t.iree > /dev/null
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=AFTER < %t.lds
// The output too, byte for byte, also split (chunks joined by `// -----`).
// RUN: lds-opt %s -p 'builtin.module(func.func(canonicalize), cse)' -o %t.lds
// RUN: %iree-opt %s -p 'builtin.module(func.func(canonicalize), cse)' -o %t.iree
// RUN: diff %t.lds %t.iree
// RUN: not lds-opt %S/Inputs/chunks.mlir --split-input-file -p 'builtin.module(cse)' 2>/dev/null > %t.lds
// RUN: not %iree-opt %S/Inputs/chunks.mlir --split-input-file -p 'builtin.module(cse)' 2>/dev/null > %t.iree
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=CHUNKS < %t.lds
// CHUNKS:      func.func @first
// CHUNKS:      // -----
// CHUNKS-NEXT: // -----
// CHUNKS-NEXT: module {
// CHUNKS-NEXT:   func.func @third()
// AFTER:      // -----// IR Dump After CSEPass: cse //----- //
// AFTER-NEXT: module {
// AFTER-NEXT:   func.func @f(%arg0: i32) -> i32 {
// AFTER-NEXT:     %0 = arith.muli %arg0, %arg0 : i32
// AFTER-NOT:  IR Dump

// --mlir-print-ir-before=PASS, for a pass nested under func.func: once per function.
// RUN: lds-opt %s -p 'builtin.module(func.func(canonicalize, cse))' --mlir-print-ir-before=canonicalize --mlir-disable-threading 2> %t.lds > /dev/null
// RUN: %iree-opt %s -p 'builtin.module(func.func(canonicalize, cse))' --mlir-print-ir-before=canonicalize --mlir-disable-threading 2> %t.iree > /dev/null
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=BEFORE < %t.lds
// BEFORE:      // -----// IR Dump Before CanonicalizerPass: canonicalize{{{.*}}max-iterations=10{{.*}}} //----- //
// BEFORE-NEXT: func.func @f(%arg0: i32) -> i32 {
// BEFORE-NEXT:   %c0_i32 = arith.constant 0 : i32
// BEFORE:      // -----// IR Dump Before CanonicalizerPass: {{.*}} //----- //
// BEFORE-NEXT: func.func @g(%arg0: i32) -> i32 {
// BEFORE-NOT:  IR Dump

// --mlir-print-ir-after-all with --mlir-print-ir-module-scope: the whole module after each pass.
// RUN: lds-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --mlir-print-ir-after-all --mlir-print-ir-module-scope --mlir-disable-threading 2> %t.lds > /dev/null
// RUN: %iree-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --mlir-print-ir-after-all --mlir-print-ir-module-scope --mlir-disable-threading 2> %t.iree > /dev/null
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=SCOPE < %t.lds
// SCOPE:      IR Dump After CanonicalizerPass: {{.*}} ('func.func' operation: @f) //----- //
// SCOPE-NEXT: module {
// SCOPE:      IR Dump After CanonicalizerPass: {{.*}} ('func.func' operation: @g) //----- //
// SCOPE-NEXT: module {
// SCOPE:      IR Dump After CSEPass: cse ('builtin.module' operation) //----- //

// --mlir-print-ir-before-all.
// RUN: lds-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --mlir-print-ir-before-all --mlir-disable-threading 2> %t.lds > /dev/null
// RUN: %iree-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --mlir-print-ir-before-all --mlir-disable-threading 2> %t.iree > /dev/null
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=BEFOREALL < %t.lds
// BEFOREALL: IR Dump Before CanonicalizerPass
// BEFOREALL: IR Dump Before CanonicalizerPass
// BEFOREALL: IR Dump Before CSEPass: cse //----- //

// --mlir-print-ir-after-change: cse after canonicalize changes nothing and is not printed.
// RUN: lds-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --mlir-print-ir-after-all --mlir-print-ir-after-change --mlir-disable-threading 2> %t.lds > /dev/null
// RUN: %iree-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --mlir-print-ir-after-all --mlir-print-ir-after-change --mlir-disable-threading 2> %t.iree > /dev/null
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=CHANGE < %t.lds
// CHANGE:      IR Dump After CanonicalizerPass: {{.*}} //----- //
// CHANGE-NEXT: func.func @f(%arg0: i32) -> i32 {
// CHANGE-NOT: IR Dump

// --mlir-print-op-generic and --mlir-print-debuginfo apply to the dumps (and the output).
// RUN: lds-opt %s -p 'builtin.module(cse)' --mlir-print-ir-after=cse --mlir-print-op-generic 2> %t.lds > /dev/null
// RUN: %iree-opt %s -p 'builtin.module(cse)' --mlir-print-ir-after=cse --mlir-print-op-generic 2> %t.iree > /dev/null
// RUN: diff %t.lds %t.iree
// RUN: filecheck %s --check-prefix=GENERIC < %t.lds
// GENERIC: "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}>
// RUN: lds-opt %s -p 'builtin.module(cse)' --mlir-print-ir-after=cse --mlir-print-debuginfo 2>&1 > /dev/null | filecheck %s --check-prefix=DEBUGINFO
// DEBUGINFO: arith.constant 0 : i32 loc(#loc

// --mlir-print-ir-after-failure: only the pass that failed, marked Failed.
// RUN: not lds-opt %s -p 'builtin.module(cse, func.func(canonicalize{max-iterations=1 test-convergence=true}))' --mlir-print-ir-after-failure 2> %t.lds > /dev/null
// RUN: not %iree-opt %s -p 'builtin.module(cse, func.func(canonicalize{max-iterations=1 test-convergence=true}))' --mlir-print-ir-after-failure 2> %t.iree > /dev/null
// RUN: filecheck %s --check-prefix=FAILURE < %t.lds
// RUN: filecheck %s --check-prefix=FAILURE < %t.iree
// FAILURE-NOT: IR Dump After CSEPass
// FAILURE:      IR Dump After CanonicalizerPass Failed: canonicalize{{{.*}}test-convergence=true{{.*}}} //----- //
// FAILURE-NEXT: func.func @f(%arg0: i32) -> i32 {

// ldsopt passes: named like MLIR's passes, their options in the header as MLIR shows its own.
// RUN: lds-opt %S/Inputs/negate_dispatch.mlir --target=cuda -p 'builtin.module(ldsopt-lower-elementwise{workgroup-size=128}, cse)' --mlir-print-ir-before=ldsopt-lower-elementwise --mlir-print-ir-after=ldsopt-lower-elementwise 2>&1 > /dev/null | filecheck %s --check-prefix=LDSOPT
// LDSOPT:     // -----// IR Dump Before LowerElementwise: ldsopt-lower-elementwise{max-workgroups=65535 workgroup-size=128} //----- //
// LDSOPT:     linalg.generic
// LDSOPT:     // -----// IR Dump After LowerElementwise: ldsopt-lower-elementwise{max-workgroups=65535 workgroup-size=128} //----- //
// LDSOPT-NOT: linalg.generic
// LDSOPT:     vector.transfer_read
// LDSOPT-NOT: IR Dump
// RUN: not lds-opt %S/Inputs/negate_dispatch.mlir -p 'builtin.module(cse, ldsopt-lower-elementwise)' --mlir-print-ir-after-failure 2>&1 | filecheck %s --check-prefix=LDSFAIL
// LDSFAIL-NOT: IR Dump After CSEPass
// LDSFAIL:     // -----// IR Dump After LowerElementwise Failed: ldsopt-lower-elementwise{max-workgroups=65535 workgroup-size=256} //----- //
// LDSFAIL:     negate_dispatch.mlir:4:1: error: ldsopt-lower-elementwise: no GPU target for this dispatch

// --dump-pass-pipeline: the pipeline as run, every option spelt out, on stderr before it runs.
// RUN: lds-opt %s -p 'builtin.module(ldsopt-lower-elementwise, func.func(canonicalize), cse)' --dump-pass-pipeline 2>&1 > /dev/null | filecheck %s --check-prefix=DUMP
// RUN: %iree-opt %s -p 'builtin.module(func.func(canonicalize), cse)' --dump-pass-pipeline 2>&1 > /dev/null | filecheck %s --check-prefix=DUMP-IREE
// DUMP:      Pass Manager with 3 passes:
// DUMP-NEXT: builtin.module(ldsopt-lower-elementwise{max-workgroups=65535 workgroup-size=256},func.func(canonicalize{{{.*}}max-iterations=10{{.*}}}),cse)
// DUMP-IREE:      Pass Manager with 2 passes:
// DUMP-IREE-NEXT: builtin.module(
// DUMP-IREE-NEXT:   func.func(
// DUMP-IREE-NEXT:     canonicalize{{{.*}}max-iterations=10{{.*}}}

// --mlir-timing: MLIR's time report, each pass by name (ldsopt's too).
// RUN: lds-opt %s -p 'builtin.module(ldsopt-lower-elementwise, cse)' --mlir-timing 2>&1 > /dev/null | filecheck %s --check-prefix=TIMING
// RUN: %iree-opt %s -p 'builtin.module(cse)' --mlir-timing 2>&1 > /dev/null | filecheck %s --check-prefix=TIMING-IREE
// TIMING:      Execution time report
// TIMING:      ----Wall Time----  ----Name----
// TIMING:      LowerElementwise
// TIMING-NEXT: CSEPass
// TIMING-IREE: Execution time report
// TIMING-IREE: CSEPass

// A pass name that names no pass is an error, as in mlir-opt (not silence).
// RUN: not lds-opt %s --mlir-print-ir-after=no-such-pass 2>&1 | filecheck %s --check-prefix=NOPASS
// NOPASS: error: --mlir-print-ir-before/after: 'no-such-pass' is not a pass

func.func @f(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %b = arith.addi %a, %c : i32
  %d = arith.addi %a, %c : i32
  %e = arith.muli %b, %d : i32
  return %e : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
