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

// An unclosed bracket is located at the bracket.
// RUN: not lds-opt %s --pass-pipeline='builtin.module(cse, func.func(canonicalize' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// UNCLOSED:      <pass-pipeline>:1:30: error: unclosed '(' in pipeline
// UNCLOSED-NEXT: builtin.module(cse, func.func(canonicalize
// UNCLOSED-NEXT: {{^}}                             ^{{$}}
// RUN: not lds-opt %s --pass-pipeline='builtin.module(ldsopt-lower-elementwise{workgroup-size=64)' 2>&1 | filecheck %s --check-prefix=UNCLOSED-OPT
// UNCLOSED-OPT: <pass-pipeline>:1:40: error: unclosed '{' in pipeline

// Counts MLIR takes as an unsigned int, nothing else.
// RUN: not lds-opt %s --mlir-elide-elementsattrs-if-larger=99999999999999999999 2>&1 | filecheck %s --check-prefix=ELIDE
// RUN: not lds-opt %s --mlir-elide-elementsattrs-if-larger=-1 2>&1 | filecheck %s --check-prefix=ELIDE
// ELIDE: lds-opt: error: --mlir-elide-elementsattrs-if-larger: expected an integer from 0 to 4294967295, got {{-1|99999999999999999999}}
// ELIDE-NOT: Traceback

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

// An endless stream of bytes that are not text fails at the first (it used to be read forever).
// RUN: not lds-opt /dev/zero 2>&1 | filecheck %s --check-prefix=ZERO
// ZERO: /dev/zero:1:1: error: input holds a NUL byte: it is not MLIR text

// The output is written only on success, whole: nothing into a missing folder or onto a folder,
// no file at all (not an empty one) from a failed run.
// RUN: not lds-opt %s -o %S/Inputs/no-such-folder/out.mlir 2>&1 | filecheck %s --check-prefix=NODIR
// NODIR: no-such-folder/out.mlir: error: cannot write: there is no folder {{.*}}no-such-folder
// RUN: not lds-opt %s -o %S/Inputs 2>&1 | filecheck %s --check-prefix=ISDIR
// ISDIR: Inputs: error: cannot write: it is a folder
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
