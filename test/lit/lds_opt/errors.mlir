// Bad input gets a located `error:` and exit code 1, never a traceback.

// RUN: not lds-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN:      <pass-pipeline>:1:16: error: 'no-such-pass' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: builtin.module(no-such-pass)
// UNKNOWN-NEXT: {{^}}               ^{{$}}
// UNKNOWN-NOT: Traceback

// RUN: not lds-opt %s --pass-pipeline='builtin.module(ldsopt-lower-elementwise{workgroup-size=abc})' 2>&1 | filecheck %s --check-prefix=BADOPT
// BADOPT: error: option 'workgroup-size' of pass 'ldsopt-lower-elementwise' expects int, got 'abc'

// RUN: not lds-opt %s --pass-pipeline='builtin.module(ldsopt-lower-elementwise{no-such-option=1})' 2>&1 | filecheck %s --check-prefix=NOOPT
// NOOPT: error: pass 'ldsopt-lower-elementwise' has no option 'no-such-option'

// RUN: not lds-opt %s --pass-pipeline='builtin.module(func.func(ldsopt-lower-elementwise))' 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED: error: ldsopt pass 'ldsopt-lower-elementwise' cannot be nested under 'func.func'

// RUN: not lds-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// PARSE:      malformed.mlir:4:{{[0-9]+}}: error: {{.*}}
// PARSE-NEXT: {{.+}}
// PARSE-NEXT: {{^ *}}^{{$}}
// PARSE-NOT: Traceback

// RUN: not lds-opt %S/Inputs/does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: does-not-exist.mlir: error: cannot read input

// RUN: not lds-opt %S/Inputs/not_utf8.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// UTF8: not_utf8.mlir:3:9: error: input is not UTF-8 text (byte 0xe9)
// UTF8-NOT: Traceback

// The output is written only on success, whole: nothing into a missing folder or onto a folder,
// no file at all (not an empty one) from a failed run.
// RUN: not lds-opt %s -o %S/Inputs/no-such-folder/out.mlir 2>&1 | filecheck %s --check-prefix=NODIR
// NODIR: no-such-folder/out.mlir: error: cannot write output: No such file or directory
// RUN: not lds-opt %s -o %S/Inputs 2>&1 | filecheck %s --check-prefix=ISDIR
// ISDIR: Inputs: error: cannot write output: Is a directory
// ISDIR-NOT: Traceback
// RUN: rm -f %t.out
// RUN: not lds-opt %S/Inputs/malformed.mlir -o %t.out
// RUN: not ls %t.out
// RUN: lds-opt %s -o %t.out
// RUN: filecheck %s --check-prefix=WRITTEN < %t.out
// WRITTEN: func.func @f()

func.func @f() {
  return
}
