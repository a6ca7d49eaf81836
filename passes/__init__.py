"""ldsopt's passes, one module a pass (installed as `ldsopt.passes`).

`PASSES` is the pass table: the registry (ldsopt/registry.py) reads it through the
`ldsopt.passes` entry point that pyproject.toml declares, and imports a pass's module only
when a pipeline names it. Another package adds passes the same way, with an entry point of
its own in that group.
"""

PASSES = {
    "ldsopt-lower-elementwise": "ldsopt.passes.lower_elementwise:LowerElementwise",
    "ldsopt-vector-distribute": "ldsopt.passes.vector_distribute:VectorDistribute",
    "ldsopt-preload-transposed": "ldsopt.passes.preload_transposed:PreloadTransposed",
    "ldsopt-matmul-lds": "ldsopt.passes.matmul_lds:MatmulLds",
    "ldsopt-dtl-layout": "ldsopt.passes.dtl_layout:DtlLayout",
    "ldsopt-inthread-transpose": "ldsopt.passes.inthread_transpose:InthreadTranspose",
    "ldsopt-split-reduction": "ldsopt.passes.split_reduction:SplitReduction",
    "ldsopt-attention": "ldsopt.passes.attention:Attention",
    "ldsopt-raise-attention": "ldsopt.passes.raise_attention:RaiseAttention",
    "ldsopt-split-attention": "ldsopt.passes.split_attention:SplitAttention",
    "ldsopt-split-matmul": "ldsopt.passes.split_matmul:SplitMatmul",
    "ldsopt-fuse-projections": "ldsopt.passes.fuse_projections:FuseProjections",
    "ldsopt-transpose-weights": "ldsopt.passes.transpose_weights:TransposeWeights",
    "ldsopt-fold-norm": "ldsopt.passes.fold_norm:FoldNorm",
    "ldsopt-pin-attention-reshapes": "ldsopt.passes.pin_attention_reshapes:PinAttentionReshapes",
    "ldsopt-fold-rotate-half": "ldsopt.passes.fold_rotate_half:FoldRotateHalf",
    "ldsopt-window-reduce": "ldsopt.passes.window_reduce:WindowReduce",
    "ldsopt-lower-copy": "ldsopt.passes.lower_copy:LowerCopy",
    "ldsopt-lower-scan": "ldsopt.passes.lower_scan:LowerScan",
    "ldsopt-lower-sort": "ldsopt.passes.lower_sort:LowerSort",
    "ldsopt-trim-windows": "ldsopt.passes.trim_windows:TrimWindows",
}
