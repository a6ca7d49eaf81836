// RUN: lds-opt --list-passes | filecheck %s
// CHECK: ldsopt-lower-elementwise: Lower elementwise
// CHECK-NEXT: workgroup-size: int = 256
// CHECK-NEXT: max-workgroups: int = 65535
// The MLIR/IREE passes a pipeline may mix in are iree-opt's, of the installed wheel:
// CHECK: A pipeline may also hold any MLIR or IREE pass (cse, canonicalize, iree-codegen-...): `{{.*}}iree-opt --help` lists them.

// RUN: lds-opt %s --mlir-print-ir-after-all --pass-pipeline='builtin.module(cse, ldsopt-lower-elementwise)' --target=cuda 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// AFTER: IR Dump After CSE
// AFTER: IR Dump After LowerElementwise
func.func @f() {
  return
}
