// Bad input gets a located `error:` and exit code 1, never a traceback.

// RUN: not lds-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: {{.*}}no-such-pass
// UNKNOWN-NOT: Traceback

// RUN: not lds-opt %s --pass-pipeline='builtin.module(ldsopt-lower-elementwise{workgroup-size=abc})' 2>&1 | filecheck %s --check-prefix=BADOPT
// BADOPT: error: option 'workgroup-size' of pass 'ldsopt-lower-elementwise' expects int, got 'abc'

// RUN: not lds-opt %s --pass-pipeline='builtin.module(ldsopt-lower-elementwise{no-such-option=1})' 2>&1 | filecheck %s --check-prefix=NOOPT
// NOOPT: error: pass 'ldsopt-lower-elementwise' has no option 'no-such-option'

// RUN: not lds-opt %s --pass-pipeline='builtin.module(func.func(ldsopt-lower-elementwise))' 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED: error: ldsopt pass 'ldsopt-lower-elementwise' cannot be nested under 'func.func'

// RUN: not lds-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// PARSE: malformed.mlir:4:{{[0-9]+}}: error: {{.*}}
// PARSE-NOT: Traceback

// A failed run writes no output file, not even an empty one; a passing run writes it.
// RUN: rm -f %t && not lds-opt %S/Inputs/malformed.mlir -o %t 2>/dev/null && not ls %t
// RUN: lds-opt %s -o %t && filecheck %s --check-prefix=WRITTEN < %t
// WRITTEN-LABEL: func.func @f

// RUN: not lds-opt %S/Inputs/does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: does-not-exist.mlir: error: cannot read input

func.func @f() {
  return
}
