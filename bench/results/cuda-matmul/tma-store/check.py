"""Checks a walking f16 matmul module on CUDA against numpy, inputs drawn on the GPU machine:
its output of millions of elements would need more of llvm-cpu's expected values than a device
call carries.

    python check.py MODULE.vmfb KIND M N K B_STORED

KIND `plain`: cases._matmul(M, N, K, "f16", "mk", B_STORED), an f32 output; `bias_residual`:
cases._matmul_epilogue(0, M, N, K, B_STORED, "bias_residual"), an f16 output. Reference: the
products summed in f64 (plus the bias and the residual, rounded to f16). Tolerance:
|out - ref| <= tol (1 + |ref|), tol 1e-2 for the f16 output (its rounding), 1e-4 for f32 (f32
accumulation over K). DRIVER (environment): the IREE driver, cuda by default."""

import os
import sys

import numpy as np
from iree import runtime


def main(module: str, kind: str, m: int, n: int, k: int, b_stored: str) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n) if b_stored == "kn" else (n, k)).astype(np.float16)
    ref = a.astype(np.float64) @ (b if b_stored == "kn" else b.T).astype(np.float64)
    args, tol = [a, b], 1e-4
    if kind == "bias_residual":
        bias, residual = rng.standard_normal(n).astype(np.float16), rng.standard_normal((m, n)).astype(np.float16)
        args += [bias, residual]
        ref = (ref + bias + residual).astype(np.float16).astype(np.float64)
        tol = 1e-2
    out = np.asarray(runtime.load_vm_flatbuffer_file(module, driver=os.environ.get("DRIVER", "cuda")).main(*args).to_host()).astype(np.float64)
    err = np.abs(out - ref)
    bad = int((err > tol * (1 + np.abs(ref))).sum())
    print(f"{'PASS' if bad == 0 else 'FAIL'} {kind} {b_stored} {m}x{n}x{k}: max abs error {err.max():.3g}, "
          f"{bad} of {err.size} elements out of tolerance")
    sys.exit(bad != 0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6]), sys.argv[6])
