"""Reductions: how one is distributed over a workgroup (`plan`) and the row-wise fused
reductions IREE forms for softmax, norms and the like (`fused_rows`)."""
