"""Pass options at the edges of their declared ranges, run on lavapipe: each value either gives
a correct kernel (PASS against llvm-cpu, lowered by the pass) or a located error naming why,
never an internal error. (Values outside the ranges: test/unit/test_registry.py and
test/lit/lds_opt/options.mlir.)"""

import os
import pathlib
import re
import subprocess
import sys

import pytest

PROGRAMS = pathlib.Path(__file__).parent / "programs"
LDS_RUN = os.path.join(os.path.dirname(sys.executable), "lds-run")
MATMUL = "matmul/nn_f32_257x129x65_acc.mlir"
TN = "matmul/tn_f32_257x129x65.mlir"

# (program, pipeline, pass that must have lowered a dispatch, or None if the error below is expected)
CASES = [
    ("elementwise/prime_1009_neg.mlir", "ldsopt-lower-elementwise{workgroup-size=1}", "ldsopt-lower-elementwise"),
    ("elementwise/prime_1009_neg.mlir", "ldsopt-lower-elementwise{workgroup-size=1024 max-workgroups=1}",
     "ldsopt-lower-elementwise"),
    ("reduction/row_sum_f32_13x1000.mlir", "ldsopt-vector-distribute{workgroup-size=1}", "ldsopt-vector-distribute"),
    ("reduction/row_sum_f32_13x1000.mlir", "ldsopt-vector-distribute{workgroup-size=9 unroll=7}",
     "ldsopt-vector-distribute"),
    ("reduction/max_middle_f32_8x1009x16.mlir", "ldsopt-vector-distribute{workgroup-size=1024 max-workgroups=1 "
                                                "unroll=1000}", "ldsopt-vector-distribute"),
    ("transpose/nhwc_nchw_add_odd_2x49x7x1009_f32.mlir", "ldsopt-preload-transposed{tile-bytes=1 row-bytes=1 "
     "store-segment-bytes=1 unroll=1000}", "ldsopt-preload-transposed"),
    ("transpose/nhwc_nchw_add_odd_2x49x7x1009_f32.mlir", "ldsopt-preload-transposed{max-workgroups=1 "
     "workgroups-per-cu=1000 unroll=0 flat=false}", "ldsopt-preload-transposed"),
    # One thread of one workgroup would loop 98688 times: lavapipe stops a shader's loops at 65535.
    ("transpose/nhwc_nchw_add_odd_2x49x7x1009_f32.mlir", "ldsopt-preload-transposed{workgroup-size=1 "
     "max-workgroups=1}", None),
    ("elementwise/large_1d_f32.mlir", "ldsopt-lower-elementwise{workgroup-size=7 max-workgroups=1}",
     "ldsopt-lower-elementwise"),  # 42858 iterations
    ("elementwise/large_1d_f32.mlir", "ldsopt-lower-elementwise{workgroup-size=4 max-workgroups=1}", None),
    ("copy/pad_nchw_p3_f32_2x3x29x29.mlir", "ldsopt-lower-copy{workgroup-size=1 max-workgroups=1}",
     "ldsopt-lower-copy"),  # 5046 iterations
    ("copy/slice_into_slice_f32_41x64_8_37.mlir", "ldsopt-lower-copy{workgroup-size=1024}", "ldsopt-lower-copy"),
    (MATMUL, "ldsopt-matmul-lds{tiles=2x4x1x1}", "ldsopt-matmul-lds"),  # 8 threads: one subgroup
    (MATMUL, "ldsopt-matmul-lds{tiles=32x64x4x4 k-pack=0 stages=3 workgroups-per-cu=1}", "ldsopt-matmul-lds"),
    (MATMUL, "ldsopt-matmul-lds{tiles=96x96x3x4}", "ldsopt-matmul-lds"),  # 768 threads, a TM of 3
    (MATMUL, "ldsopt-matmul-lds{tiles=8x4x2x4}", None),  # 4 threads: less than a subgroup
    (MATMUL, "ldsopt-matmul-lds{stages=8}", "ldsopt-matmul-lds"),  # 32 KiB in 32x32 tiles (64x64 take 64)
    (MATMUL, "ldsopt-matmul-lds{stages=12}", None),  # more LDS than the target has, in every tiling
    (TN, "ldsopt-inthread-transpose{force=true lanes=rows rake-bits=128}, ldsopt-matmul-lds", "ldsopt-matmul-lds"),
    (TN, "ldsopt-inthread-transpose{force=true lane-rows=1 pad=4 swizzle=0}, ldsopt-matmul-lds", "ldsopt-matmul-lds"),
    (TN, "ldsopt-inthread-transpose{force=true row-xor=3}, ldsopt-matmul-lds", None),  # no staging has it
    ("dtl_tiles/nn_f32_100x200x48.mlir", "ldsopt-dtl-layout{layout=perm<1,1> lane-bytes=16}, ldsopt-matmul-lds",
     "ldsopt-matmul-lds"),
    ("dtl_tiles/nn_f32_100x200x48.mlir", "ldsopt-dtl-layout{layout=rotation<1,1,1>}, ldsopt-matmul-lds",
     "ldsopt-matmul-lds"),
    ("dtl_tiles/nn_f32_100x200x48.mlir", "ldsopt-dtl-layout{layout=block_pad<1,1>}, ldsopt-matmul-lds", None),
]
ERRORS = {
    "ldsopt-preload-transposed{workgroup-size=1 max-workgroups=1}":
        "ldsopt-preload-transposed: the kernel's loops take up to 98688 iterations per thread, more than lavapipe "
        "runs (65535",
    "ldsopt-lower-elementwise{workgroup-size=4 max-workgroups=1}":
        "ldsopt-lower-elementwise: the kernel's loops take up to 75002 iterations per thread",
    "ldsopt-matmul-lds{tiles=8x4x2x4}": "ldsopt-matmul-lds: no tiling of tiles=8x4x2x4 fits the target's threads "
                                        "(whole subgroups of 8",
    "ldsopt-matmul-lds{stages=12}": "ldsopt-matmul-lds: no tiling fits",
    "ldsopt-inthread-transpose{force=true row-xor=3}, ldsopt-matmul-lds":
        "ldsopt-inthread-transpose: no staging of operand A has the forced lanes, row-xor, pad and swizzle",
    "ldsopt-dtl-layout{layout=block_pad<1,1>}, ldsopt-matmul-lds":
        "block_pad<1,1>: padding blocks must be whole wave loads",
}


@pytest.mark.parametrize("program, passes, lowered_by", CASES, ids=[c[1] for c in CASES])
def test_option_edge(program, passes, lowered_by):
    proc = subprocess.run([LDS_RUN, str(PROGRAMS / program), "--target", "lavapipe", "--atol", "1e-3", "--rtol", "1e-3",
                           "--pipeline", f"builtin.module({passes}, canonicalize, cse)"],
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out and "internal error" not in out, out
    if lowered_by is None:
        assert proc.returncode == 1 and ERRORS[passes] in proc.stderr, out
    else:
        assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), out
        assert re.search(rf"^dispatch .*: ldsopt: .*\b{lowered_by}\b", proc.stdout, re.M), out
