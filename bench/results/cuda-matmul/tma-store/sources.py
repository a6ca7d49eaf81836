"""Writes the walking kernels' programs that check.py checks: DIR/KIND_ORDER_MxNxK.mlir for each
KIND:M:N:K:ORDER (KIND `plain`: cases._matmul(M, N, K, "f16", "mk", ORDER), an f32 output;
`bias_residual`: cases._matmul_epilogue(0, M, N, K, ORDER, "bias_residual"), an f16 output).

    python sources.py DIR KIND:M:N:K:ORDER..."""

import sys

from ldsopt.measure import cases


def main(out: str, specs: list[str]) -> None:
    for spec in specs:
        kind, m, n, k, order = spec.split(":")
        m, n, k = int(m), int(n), int(k)
        case = cases._matmul(m, n, k, "f16", "mk", order) if kind == "plain" else \
            cases._matmul_epilogue(0, m, n, k, order, "bias_residual")
        open(f"{out}/{kind}_{order}_{m}x{n}x{k}.mlir", "w").write(case.mlir)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
