"""The tools' --help documents every flag, and lds-run's shows the default pipelines."""

import os
import subprocess
import sys

import pytest

from ldsopt.run import driver
from ldsopt.tools import lds_bench, lds_opt, lds_run

BIN = os.path.dirname(sys.executable)


@pytest.mark.parametrize("parser", [lds_opt.parser()[0], lds_run.parser(), lds_bench.parser()],
                         ids=["lds-opt", "lds-run", "lds-bench"])
def test_every_flag_has_a_help_text(parser):
    undocumented = [a.option_strings or a.dest for a in parser._actions if not a.help]
    assert undocumented == []


def test_lds_run_help_shows_the_default_pipelines():
    out = subprocess.run([os.path.join(BIN, "lds-run"), "--help"], capture_output=True, text=True, check=True).stdout
    assert f"--pipeline '{driver.DEFAULT_PIPELINE}'" in out
    assert f"--program-pipeline '{driver.PROGRAM_PIPELINE}'" in out
    assert "docs/lds-run-output.md" in out


@pytest.mark.parametrize("tool", ["lds_opt", "lds_run", "lds_bench"])
@pytest.mark.parametrize("argv", [["--help"], ["--no-such-flag"]])
def test_help_and_argument_errors_import_neither_iree_nor_numpy(tool, argv):
    """`--help` and argument errors answer before the tools import IREE's bindings or numpy
    (about half a second of every start): the heavy imports wait until the arguments parse."""
    code = (f"import sys\nfrom ldsopt.tools import {tool}\n"
            f"try:\n    {tool}.main({argv!r})\nexcept SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'iree', 'numpy'}), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stderr.strip().splitlines()[-1] == "[]", proc.stderr
