// --split-input-file keeps real line numbers; --verify-diagnostics matches expected-* comments;
// output chunks are separated by `// -----`; C++ passes mix with ours in one pipeline.

// RUN: not lds-opt %s --split-input-file --pass-pipeline='builtin.module(canonicalize, ldsopt-lower-elementwise, cse)' --target=cuda 2>/dev/null | filecheck %s
// RUN: not lds-opt %s --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=ERR
// RUN: lds-opt %S/Inputs/expected_errors.mlir --split-input-file --verify-diagnostics
// RUN: not lds-opt %S/Inputs/unmet_expectation.mlir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=UNMET

// CHECK-LABEL: func.func @first
// CHECK: arith.constant 3 : i32
// CHECK: // -----
// CHECK-LABEL: func.func @second
func.func @first() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}

// -----

func.func @second() {
  return
}

// -----

// ERR: split_and_verify.mlir:30:{{[0-9]+}}: error: use of undeclared SSA value name
func.func @third() -> i32 {
  return %nope : i32
}

// UNMET: error: expected error "this is never reported" was not produced
