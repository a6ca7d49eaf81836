"""The commands of README.md and of the docs it sends readers to (DOCUMENTS) are run, so that
a moved file, a renamed flag or output that changed breaks a test.

The rule. A command is a line of a fenced code block (``` ... ```), its `\\` continuations
joined, that runs one of the tools: lds-opt, lds-run, lds-bench, lit, pytest or
`python -m pytest|ldsopt.*`, bare or from `.venv/bin/`, after an optional `$ ` prompt and
environment assignments (`A=b`). A line of commands joined by `&&` gives each piece that runs a
tool; a `# comment` is not part of a command. In a block whose commands start with `$ `, the
lines up to the next `$ ` are the output shown for that command; a block of one command without
`$ ` has as its output shown the block right after it, if nothing but blank lines comes between.
Each line of the output shown must be a line of what the command prints, in that order (decimal
figures, such as a run's errors, masked), and the command must fail if the output shown holds
`error:`, else succeed. Commands run from the repository root
with the installed tools (those beside this interpreter). EXEMPT names the commands not run,
each with the reason.
"""

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

# A README command that runs the suite (it belongs in EXEMPT) would run this file again inside
# itself: there it is skipped, so that a missing exemption costs one run of the suite, not a loop.
pytestmark = pytest.mark.skipif(os.environ.get("LDSOPT_IN_README_TEST") == "1", reason="run by a README command")

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.path.dirname(sys.executable)
TOOLS = ("lds-opt", "lds-run", "lds-bench", "lit", "pytest")

# command as written -> why it is not run here.
EXEMPT = {
    "LDSOPT_FUZZ=long .venv/bin/python -m pytest -q test/fuzz --hypothesis-show-statistics":
        "the fuzzer's long profile: thousands of programs, hours",
    "LDSOPT_FUZZ=long LDSOPT_FUZZ_EXAMPLES=200 .venv/bin/python -m pytest -q test/fuzz":
        "the fuzzer's long profile, time-boxed to 200 examples a test: tens of minutes",
    "lds-run prog.mlir other.mlir --target cuda --prepare DIR": "prog.mlir, other.mlir and DIR stand for the "
                                                               "user's files",
    "python -m ldsopt.run.replay DIR --require-ldsopt": "run on the GPU machine, on a folder DIR the user prepared",
    "lds-bench --target cuda --prepare BDIR": "compiles every benchmark case: minutes; BDIR stands for a folder",
    "lds-bench --target cuda --prepare BDIR --cases attention_1x12x512x64_f16": "BDIR stands for a folder "
                                                                               "(test_bench prepares cases)",
    ".venv/bin/python -m pytest -p no:cacheprovider -n auto test/unit test/test_lit.py":
        "the quick subset holds this test: run, it would run the unit tests and the lit suite again",
    "python -m ldsopt.measure.bench_replay BDIR --out OUT": "run on the GPU machine, on a folder the user prepared",
    "lds-bench model.onnx --target cuda --prepare DIR": "model.onnx and DIR stand for the user's files "
                                                        "(test/e2e/test_lds_bench_program.py runs it on a model)",
    "python -m ldsopt.measure.program_bench DIR --out OUT": "run on the GPU machine, on a folder the user prepared",
    "python -m ldsopt.measure.program_bench DIR": "run on the GPU machine, on a folder the user prepared",
    "lds-bench OUT/encoder_layer_base_f16.onnx --target cuda-sm90a --weights-to-archive --stack 12 --prepare DIR":
        "the base-size layer, 12 layers a call both ways: minutes (test/e2e/test_lds_bench_program.py runs "
        "--weights-to-archive --stack on the small layer)",
    "lds-bench --target gfx942 --out OUT": "compiles every case for gfx942 twice: minutes "
                                           "(test/e2e/test_lds_bench_gfx942.py runs it on two cases)",
    "lds-bench encoder_layer_base_f16.onnx --target gfx942 --out OUT": "encoder_layer_base_f16.onnx stands for a model "
                                                                        "models/suite.py writes (test/e2e/test_lds_bench_gfx942.py "
                                                                        "runs the small layer)",
    "lds-bench model.onnx --target lavapipe --out OUT": "model.onnx stands for the user's model "
                                                        "(test/e2e/test_lds_bench_program.py runs it on a model)",
    "python -m ldsopt.run.torch_replay DIR": "run on the GPU machine, on a folder the user prepared",
}


_ASSIGNMENT = r"[A-Z_][A-Z0-9_]*=\S*"
_INVOCATION = re.compile(rf"(?:{_ASSIGNMENT}\s+)*(\S+)(?:\s+-m\s+(\S+))?")


def _runs_a_tool(command: str) -> bool:
    m = _INVOCATION.match(command)
    exe = os.path.basename(m.group(1)) if m else ""
    return exe in TOOLS or (exe.startswith("python") and m.group(2) is not None
                            and (m.group(2) == "pytest" or m.group(2).startswith("ldsopt.")))


# The documents whose commands are run: the README and the pages it sends readers to.
DOCUMENTS = ("README.md", "docs/tools.md", "docs/testing.md", "docs/gfx942.md")


def readme_commands(document: str = "README.md") -> list[tuple[str, list[str] | None]]:
    """(command, the output shown for it, or None where none is) for each command of
    `document`, in order."""
    blocks: list[tuple[list[str], bool]] = []  # (lines, whether it follows the previous block directly)
    block, gap = None, True
    for line in (ROOT / document).read_text().splitlines():
        if line.startswith("```"):
            if block is not None:
                blocks.append((block, not gap))
                gap = False
            block = None if block is not None else []
        elif block is not None:
            if block and block[-1].endswith("\\"):
                block[-1] = block[-1][:-1].rstrip() + " " + line.strip()
            else:
                block.append(line)
        elif line.strip():
            gap = True
    out: list[tuple[str, list[str] | None]] = []
    waiting = None  # the output list of a lone unprompted command of the previous block
    for block, follows in blocks:
        prompted = any(line.startswith("$ ") for line in block)
        if waiting is not None and follows and not prompted:
            waiting.extend(block)  # the output block right after a block of one command
            waiting = None
            continue
        found: list[tuple[str, list[str]]] = []
        for line in block:
            if prompted and not line.startswith("$ "):
                if found:
                    found[-1][1].append(line)
                continue
            for piece in line.removeprefix("$ ").split("&&"):
                command = piece.split(" #")[0].strip()
                if _runs_a_tool(command):
                    found.append((command, []))
        waiting = found[0][1] if not prompted and len(found) == 1 else None
        # Several unprompted commands: what each prints is not told apart, none is checked.
        out += found if prompted or len(found) == 1 else [(c, None) for c, _ in found]
    return out


COMMANDS = [(doc, c, shown) for doc in DOCUMENTS for c, shown in readme_commands(doc)]


def test_the_rule_finds_the_readme_examples():
    """The rule finds what the README shows (a broken rule would run nothing)."""
    found = [c for _, c, _ in COMMANDS]
    assert ".venv/bin/lds-run examples/nhwc_bias_relu_sum.mlir --require-ldsopt" in found
    example = "lds-opt test/lit/lower_elementwise/lower_elementwise.mlir --split-input-file"
    assert any(c.startswith(example) for c in found)
    assert "lds-run --help" in found
    assert set(EXEMPT) <= set(found), set(EXEMPT) - set(found)  # an exemption of a command no longer shown


_DECIMAL = re.compile(r"\d+\.\d+(?:e[-+]?\d+)?|\d+e[-+]?\d+")


def _masked(line: str) -> str:
    return _DECIMAL.sub("<n>", line.rstrip())


@pytest.mark.parametrize("command, shown", [(c, shown) for _, c, shown in COMMANDS if c not in EXEMPT],
                         ids=[f"{doc}: {c}" for doc, c, _ in COMMANDS if c not in EXEMPT])
def test_readme_command(command, shown):
    words = shlex.split(command)
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ["PATH"], "LDSOPT_IN_README_TEST": "1"}
    while re.fullmatch(_ASSIGNMENT, words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    exe = os.path.basename(words[0])
    words[0] = sys.executable if exe.startswith("python") else os.path.join(BIN, exe)
    proc = subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    printed = proc.stdout + proc.stderr
    fails = shown is not None and any("error:" in line for line in shown)
    assert (proc.returncode != 0) == fails, f"exit {proc.returncode}:\n{printed}"
    lines = [_masked(line) for line in printed.splitlines()]
    at = 0
    for want in shown or []:
        if not want.strip() or want.strip() == "...":
            continue
        assert _masked(want) in lines[at:], f"README shows {want!r}, not printed (in this order) by:\n{printed}"
        at = lines.index(_masked(want), at) + 1
