"""ldsopt/run/compile_cache.py: which compiles it keeps, that a kept output comes back for the
same compile only, and that failures are not kept (through driver.iree_compile, for real)."""

import os

import pytest

from ldsopt.run import compile_cache
from ldsopt.run import driver
from ldsopt.run.iree_tools import tool

ADD = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
CPU = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(compile_cache.ENV, str(folder))
    return folder


def write(path, text):
    path.write_text(text)
    return str(path)


def test_off_without_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv(compile_cache.ENV, raising=False)
    src = write(tmp_path / "a.mlir", ADD)
    assert compile_cache.key(tool("iree-compile"), [src, *CPU, "-o", str(tmp_path / "a.vmfb")]) is None


def test_compiles_it_does_not_take(tmp_path, cache):
    exe = tool("iree-compile")
    src = write(tmp_path / "a.mlir", ADD)
    out = str(tmp_path / "a.vmfb")
    assert compile_cache.key(exe, [src, *CPU, "-o", out]) is not None
    # a flag naming a folder (an output the cache would not restore), two inputs, no -o
    assert compile_cache.key(exe, [src, *CPU, f"--iree-hal-dump-executable-files-to={tmp_path}", "-o", out]) is None
    assert compile_cache.key(exe, [src, src, "-o", out]) is None
    assert compile_cache.key(exe, [src, *CPU]) is None


def test_key_is_of_the_input_text_and_the_flags(tmp_path, cache):
    exe = tool("iree-compile")
    a = write(tmp_path / "a.mlir", ADD)
    b = write(tmp_path / "b.mlir", ADD)  # same text, another file
    c = write(tmp_path / "c.mlir", ADD.replace("addf", "mulf"))
    out = str(tmp_path / "x.vmfb")
    assert compile_cache.key(exe, [a, *CPU, "-o", out]) == compile_cache.key(exe, [b, *CPU, "-o", out])
    assert compile_cache.key(exe, [a, *CPU, "-o", out]) != compile_cache.key(exe, [c, *CPU, "-o", out])
    assert compile_cache.key(exe, [a, *CPU, "-o", out]) != compile_cache.key(exe, [a, *CPU, "--mlir-print-op-generic",
                                                                                  "-o", out])
    assert compile_cache.key(exe, [a, *CPU, "-o", out]) != compile_cache.key(exe, [a, *CPU, "-o", out + ".mlir"])


def test_a_second_compile_is_the_first_ones_output(tmp_path, cache):
    """The same text from another file: compiled, its module would name that file (debug
    information); from the cache it is the first module, byte for byte."""
    first, second = tmp_path / "first.vmfb", tmp_path / "second.vmfb"
    driver.iree_compile([write(tmp_path / "a.mlir", ADD), *CPU, "-o", str(first)], "compile")
    assert len(os.listdir(cache)) == 1 and first.stat().st_size > 0
    driver.iree_compile([write(tmp_path / "b.mlir", ADD), *CPU, "-o", str(second)], "compile")
    assert second.read_bytes() == first.read_bytes()
    assert len(os.listdir(cache)) == 1  # nothing partial left beside it


def test_a_failed_compile_is_not_kept(tmp_path, cache):
    src = write(tmp_path / "bad.mlir", ADD.replace("%a, %a", "%a, %nope"))
    for _ in range(2):  # fails, and reports, both times
        with pytest.raises(driver.DriverError, match="use of undeclared SSA value name"):
            driver.iree_compile([src, *CPU, "-o", str(tmp_path / "bad.vmfb")], "compile")
    assert not cache.exists() or not os.listdir(cache)
