"""Building GPU-level kernels: what a dispatch computes (`dispatch`), the kernel builder IREE
lowers as written (`kernel`), elementwise bodies on vectors (`elementwise`, `fast_math`) and
reduction combiners (`combining`)."""
