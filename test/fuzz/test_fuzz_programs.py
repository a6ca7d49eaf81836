"""Fuzzes lds-run with random programs (test/fuzz/programs.py).

On lavapipe every program must PASS (ldsopt's kernels, or IREE's where no pass takes a
dispatch, agree with IREE's llvm-cpu on random inputs), also with random plausible pass
options; for gfx942 and CUDA (not here) lds-run must compile it (matrix-core kernels,
cp.async and gather_to_lds staging). Or an ldsopt pass refuses it cleanly: exit 1 and a
located `error:` from the ldsopt pipeline. A traceback, an internal error, a kernel IREE
cannot compile or run, a hang or wrong values fail the test; the message holds the program
and the command that reproduces it. Each outcome is a separate assertion, so Hypothesis
reports each kind of failure it finds (not only the first). Where IREE's own pipeline
(`lds-run --baseline`) fails to compile the program with the same error or gets the same
outputs wrong, the fault is IREE's: the example is counted (Hypothesis's statistics) and set
aside, as are known defects.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

from hypothesis import event, given, reject
from hypothesis import strategies as st

import options
import programs
from ldsopt import registry
from ldsopt.run.driver import DEFAULT_PIPELINE
from ldsopt.pipeline import split_top_level

LDS_RUN = os.path.join(os.path.dirname(sys.executable), "lds-run")
# Compiling a program takes seconds; minutes mean a hang (on a machine shared by several jobs).
TIMEOUT_S = 600
# A refusal by an ldsopt pass ("ldsopt pipeline failed:" then its located errors), or of an
# option value it does not take.
REFUSAL = re.compile(r"ldsopt (program )?pipeline (failed:\n.*: error: |does not parse: )")
# "output 0: max abs error 217, max rel error 1, 2 elements out of tolerance"
# "output 0 (f32): max abs error 1.73, ...; 4 elements out of tolerance"
OUT_OF_TOLERANCE = re.compile(r"^(output \d+) \(\w+\): .*elements out of tolerance", re.M)
# "/tmp/x/ldsopt.mlir:27:16: error: failed to legalize operation 'vector.create_mask': ..."
COMPILE_ERROR = re.compile(r"\.mlir:\d+:\d+: error: ([^:\n]*)")

# Defects known and fixed on another branch (`robust`), recognised by their signature so that
# the fuzzer keeps generating these programs and reports them again once the fix is merged.
KNOWN_DEFECTS = [
    # A rank-0 dispatch (a reduction to tensor<f32> that IREE turns elementwise, a 1x1x1
    # matmul, a rank-0 epilogue) indexes the last dim of a shape that has none.
    ("rank-0 dispatches crash ldsopt-lower-elementwise",
     re.compile(r"lower_elementwise\.py.*\n.*cshape\[-1\].*\n.*\nIndexError: list index out of range")),
]


def repro(program: programs.Program, args: list[str], proc_out: str) -> str:
    return (f"\n$ lds-run prog.mlir {' '.join(args)}\n{proc_out.rstrip()}\n"
            f"--- prog.mlir ({program.summary}) ---\n{program.text}")


def lds_run(program: programs.Program, args: list[str]) -> tuple[int, str, str]:
    """(exit status, stdout, stdout and stderr) of lds-run on the program, its path shown as
    prog.mlir; what it compiles goes to a folder removed afterwards (shown as DIR)."""
    with tempfile.TemporaryDirectory(prefix="ldsopt-fuzz-") as tmp:
        path = os.path.join(tmp, "prog.mlir")
        with open(path, "w") as f:
            f.write(program.text)
        emit = ["--emit-dir", os.path.join(tmp, "DIR")]
        try:
            proc = subprocess.run([LDS_RUN, path, *args, *emit], capture_output=True, text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"hang: lds-run ran over {TIMEOUT_S} s" + repro(program, args, "")) from None
    return proc.returncode, proc.stdout, (proc.stdout + proc.stderr).replace(path, "prog.mlir").replace(emit[1], "DIR")


def wrong_outputs(report: str) -> list[str]:
    return OUT_OF_TOLERANCE.findall(report)


def compile_error(report: str) -> str | None:
    """The first error iree-compile reported, without its location."""
    m = COMPILE_ERROR.search(report)
    return m.group(1) if m else None


def iree_fails_alike(program: programs.Program, args: list[str], report: str) -> bool:
    """Whether IREE's own pipeline (lds-run --baseline) fails the same way: the same first
    compile error, or the same outputs wrong."""
    base = lds_run(program, args + ["--baseline"])[2]
    if compile_error(report):
        return compile_error(base) == compile_error(report)
    return bool(wrong_outputs(report)) and wrong_outputs(base) == wrong_outputs(report)


def set_aside(program: programs.Program, reason: str, args: list[str], report: str) -> None:
    """Counts an example whose fault is known or IREE's, logs it (LDSOPT_FUZZ_LOG=file) and skips it."""
    event(reason)
    if os.environ.get("LDSOPT_FUZZ_LOG"):
        with open(os.environ["LDSOPT_FUZZ_LOG"], "a") as f:
            f.write(f"=== {reason}{repro(program, args, report)}\n")
    reject()


def check(program: programs.Program, target: str = "lavapipe", pipeline: str | None = None) -> None:
    """lavapipe: lds-run runs the program and it PASSes. gfx942, cuda (not here): lds-run
    compiles it. Or an ldsopt pass refuses it."""
    args = ["--target", target, *program.args] + (["--pipeline", pipeline] if pipeline else [])
    rc, stdout, out = lds_run(program, args)
    for reason, signature in KNOWN_DEFECTS:
        if signature.search(out):
            set_aside(program, f"known defect: {reason}", args, out)
    assert "Traceback" not in out, "traceback" + repro(program, args, out)
    assert "internal error" not in out, "internal error" + repro(program, args, out)
    last = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    what = f"{program.kind} on {target}"
    if rc == 0:
        verdict = "PASS" if target == "lavapipe" else "COMPILED" if target == "gfx942" else "PREPARED"
        assert last.startswith(verdict), f"exit 0 without {verdict}" + repro(program, args, out)
        event(f"{what}: {verdict}" + (" (a dispatch kept IREE's pipeline)" if "iree-default" in stdout else ""))
        return
    if last.startswith("FAIL") and iree_fails_alike(program, args, out):
        set_aside(program, f"{what}: IREE's own pipeline gets the same outputs wrong", args, out)
    assert not last.startswith("FAIL"), "wrong values" + repro(program, args, out)
    assert rc == 1, f"exit {rc}" + repro(program, args, out)
    error = out.partition(": error: ")[2]
    if error.startswith("reference compile (llvm-cpu) failed"):  # the original program, no ldsopt in it
        set_aside(program, f"{program.kind}: IREE's llvm-cpu cannot compile the reference", args, out)
    if error.startswith("iree-compile") and iree_fails_alike(program, args, out):
        set_aside(program, f"{what}: IREE's own pipeline cannot compile it either", args, out)
    assert REFUSAL.match(error), "not a refusal by an ldsopt pass" + repro(program, args, out)
    event(f"{what}: refused")


# The default pipeline with the opt-in ldsopt-dtl-layout before ldsopt-matmul-lds.
WITH_DTL = ("builtin.module(ldsopt-vector-distribute, ldsopt-inthread-transpose, ldsopt-dtl-layout, "
            "ldsopt-matmul-lds, ldsopt-preload-transposed, ldsopt-lower-elementwise, canonicalize, cse)")


@given(programs.reductions())
def test_reductions(program):
    check(program)


@given(programs.elementwise())
def test_elementwise(program):
    check(program)


@given(programs.matmuls())
def test_matmuls(program):
    check(program)


@given(programs.matmuls() | programs.reductions() | programs.elementwise(), st.sampled_from(("gfx942", "cuda")),
       st.sampled_from((None, WITH_DTL)))
def test_compiles_for_gpus(program, target, pipeline):
    check(program, target, pipeline)


@st.composite
def pipelines_with_options(draw) -> str:
    """lds-run's default pipeline, each ldsopt pass in it given plausible options or none; an
    option a later pass shares with an earlier one (the plan options of ldsopt-matmul-lds)
    gets the same value, as they must."""
    plan_options = {o[0] for o in registry.lookup("ldsopt-matmul-lds").options()}
    parts, given_values = [], {}
    for _, name in split_top_level(DEFAULT_PIPELINE[len("builtin.module("):-1]):
        if registry.is_registered(name):
            known = [o[0] for o in registry.lookup(name).options()]
            opts = draw(options.option_sets(registry.lookup(name), plausible_only=True)) if draw(st.booleans()) else []
            opts = dict(opts) | {k: v for k, v in given_values.items() if k in known}
            given_values |= {k: v for k, v in opts.items() if k in plan_options}
            name += f"{{{options.options_text(list(opts.items()), ' ')}}}" if opts else ""
        parts.append(name)
    return f"builtin.module({', '.join(parts)})"


@given(programs.matmuls() | programs.reductions() | programs.elementwise(), pipelines_with_options())
def test_programs_with_pass_options(program, pipeline):
    """Plausible pass options change the kernels, never their values."""
    check(program, pipeline=pipeline)
