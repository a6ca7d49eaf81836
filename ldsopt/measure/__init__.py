"""Measuring: the cases of lds-bench (`cases`), the compile half that prepares benchmark
modules (`bench`), the run halves that time them on the GPU machine (`bench_replay` for
dispatches, `program_bench` for whole programs, both on `timing`), and gfx942 ISA summaries
(`isa`)."""
