"""Checks a module of `_matmul_epilogue(0, M, N, K, "kn", "bias_residual")` on CUDA against
numpy, inputs drawn on the GPU machine: the walk's output of 2 M elements would need about 40 MB
of llvm-cpu's expected values and sensitivities, past what a device call carries.

    python check_walk.py MODULE.vmfb M N K

Reference: the f16 operands' products summed in f64, plus the bias and the residual, rounded
to f16. Tolerance: |out - ref| <= 1e-2 (1 + |ref|), the f16 output's rounding plus f32
accumulation over K."""

import sys

import numpy as np
from iree import runtime


def main(module: str, m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(s).astype(np.float16) for s in ((m, k), (k, n)))
    bias, residual = rng.standard_normal(n).astype(np.float16), rng.standard_normal((m, n)).astype(np.float16)
    out = np.asarray(runtime.load_vm_flatbuffer_file(module, driver="cuda").main(a, b, bias, residual).to_host())
    ref = (a.astype(np.float64) @ b.astype(np.float64) + bias + residual).astype(np.float16).astype(np.float64)
    err = np.abs(out.astype(np.float64) - ref)
    bad = int((err > 1e-2 * (1 + np.abs(ref))).sum())
    print(f"{'PASS' if bad == 0 else 'FAIL'} {m}x{n}x{k}: max abs error {err.max():.3g}, {bad} of {err.size} "
          "elements out of tolerance")
    sys.exit(bad != 0)


if __name__ == "__main__":
    main(sys.argv[1], *map(int, sys.argv[2:5]))
