"""Runs the lit suite (test/lit) once and reports each lit file as its own pytest test."""

import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

LIT_DIR = pathlib.Path(__file__).parent / "lit"
LIT_FILES = sorted(p.relative_to(LIT_DIR).as_posix() for p in LIT_DIR.rglob("*.mlir")
                   if "Inputs" not in p.parts and "Output" not in p.parts)


@pytest.fixture(scope="session")
def lit_results(tmp_path_factory):
    xml = tmp_path_factory.mktemp("lit") / "lit.xml"
    bin_dir = os.path.dirname(sys.executable)  # lds-opt, lit and filecheck live beside python
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    proc = subprocess.run([os.path.join(bin_dir, "lit"), "-q", f"--xunit-xml-output={xml}", str(LIT_DIR)],
                          capture_output=True, text=True, env=env)
    results = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        # classname "ldsopt.lower_elementwise", name "x.mlir" -> "lower_elementwise/x.mlir"
        folder = case.get("classname").partition(".")[2].replace(".", "/")
        failure = case.find("failure")
        results[f"{folder}/{case.get('name')}".lstrip("/")] = failure.text if failure is not None else None
    return results, proc.stdout + proc.stderr


@pytest.mark.parametrize("lit_file", LIT_FILES)
def test_lit(lit_file, lit_results):
    results, log = lit_results
    assert lit_file in results, f"lit did not run {lit_file}:\n{log}"
    assert results[lit_file] is None, results[lit_file]
