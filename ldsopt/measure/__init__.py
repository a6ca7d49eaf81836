"""Measuring: the cases of lds-bench (`cases`), the compile half that prepares benchmark
modules (`bench`), the run halves that time them on the GPU machine (`bench_replay` for
dispatches, `program_bench` for whole programs, both on `timing`), gfx942 ISA summaries
(`isa`), and the static gfx942 report where no HIP device is (`gfx942_report`, on
`isa_counts`, `occupancy`, `mi300x` and `dispatch_work`)."""
