"""The default pipelines of lds-run and lds-bench, by name (standard library only: the tools
print them in `--help` before they import the compiler)."""

# Run on the program, before IREE forms dispatches: passes that change which dispatches exist.
PROGRAM_PIPELINE = ("builtin.module(ldsopt-trim-windows, ldsopt-raise-attention, ldsopt-fold-rotate-half, "
                    "ldsopt-fuse-projections, ldsopt-transpose-weights, ldsopt-pin-attention-reshapes, "
                    "ldsopt-split-attention, ldsopt-split-matmul, ldsopt-split-reduction)")


def program_pipeline(fold_norm: bool = False, transpose_weights: str | None = None) -> str:
    """PROGRAM_PIPELINE with the opt-in ldsopt-fold-norm appended (`fold_norm`: it runs last)
    and ldsopt-transpose-weights in mode `transpose_weights` (None: its default)."""
    p = PROGRAM_PIPELINE
    if transpose_weights is not None:
        p = p.replace("ldsopt-transpose-weights,", f"ldsopt-transpose-weights{{mode={transpose_weights}}},")
    return p[:-1] + ", ldsopt-fold-norm)" if fold_norm else p
# Specialized passes first; the elementwise lowering takes what is left and qualifies. The
# matmuls whose register staging is bound by load latency (on CUDA: grids of about one wave)
# are staged by cp.async in 128-byte K steps, 3 LDS tiles deep (ldsopt-dtl-layout's
# `grids=small`; the depth measured on the H200, bench/results/cuda-bert/short_k), and large
# 16-bit products on CUDA by cp.async in 128x256 tiles (`grids=auto`'s large-grid plan,
# bench/results/cuda-matmul/sweep-424b3f4); the others by ldsopt-inthread-transpose and
# ldsopt-matmul-lds's own plan. Window reductions (pooling, and the depthwise convolutions
# ldsopt-matmul-lds leaves) after the matmuls and the reductions. IREE's copy dispatches (a
# pad's image into its buffer, slices) are already on memrefs, which only ldsopt-lower-copy reads.
DEFAULT_PIPELINE = ("builtin.module(ldsopt-attention, ldsopt-vector-distribute, ldsopt-dtl-layout{grids=auto k-bytes=128 stages=3}, "
                    "ldsopt-inthread-transpose, ldsopt-matmul-lds, ldsopt-window-reduce, ldsopt-preload-transposed, "
                    "ldsopt-lower-elementwise, ldsopt-lower-copy, ldsopt-lower-scan, ldsopt-lower-sort, canonicalize, cse)")
