"""Flash attention as one kernel (ldsopt-attention): matching IREE's attention dispatches
(match.py), the plan (plan.py), and the kernels: what they share (emit.py), FMA (emit_fma.py),
mma.sync (emit_mma.py), MFMA (emit_mfma.py) and wgmma (emit_wgmma.py)."""
