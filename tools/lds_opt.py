"""lds-opt: run a pass pipeline over an .mlir file, like mlir-opt / iree-opt.

    lds-opt in.mlir --pass-pipeline='builtin.module(ldsopt-lower-elementwise, cse)' [-o out.mlir]
    lds-opt --list-passes

It takes mlir-opt's everyday flags with their meaning (IR printing, timing, threading,
--allow-unregistered-dialect, ...), each handed to what MLIR's Python bindings provide for it:
flags match exactly (no abbreviations) and may be spelt with one dash, as LLVM's command line
allows. Errors are printed as `file:line:col: error: message` with the source line and a
caret under the column, and exit 1, never as a traceback (set LDSOPT_TRACEBACK=1 to see one
for an internal error).
"""
from __future__ import annotations

import argparse
import re
import sys

from ldsopt.target import KNOWN


def _pass_list(text: str) -> list[str]:
    return [p for p in text.split(",") if p]


def parser() -> tuple[argparse.ArgumentParser, set[str]]:
    """The argument parser, and its long options (which may also be spelt with one dash)."""
    ap = argparse.ArgumentParser(prog="lds-opt", description=__doc__.split("\n")[0], allow_abbrev=False,
                                 epilog="Long flags may also be spelt with one dash (-pass-pipeline=..., "
                                        "-split-input-file), as LLVM tools take them; none may be abbreviated.")
    longs: set[str] = set()

    def add(*names, **kw):
        longs.update(n for n in names if n.startswith("--"))
        ap.add_argument(*names, **kw)

    add("input", nargs="?", default="-", help="input .mlir file, or - for stdin")
    add("-o", dest="output", default="-", help="output file (default stdout)")
    add("--pass-pipeline", "-p", default="", help="e.g. 'builtin.module(ldsopt-lower-elementwise,cse)'")
    add("--split-input-file", action="store_true", help="process each '// -----' chunk on its own")
    add("--verify-diagnostics", action="store_true",
        help="check diagnostics against expected-error/warning/remark @+N {{...}} comments")
    add("--list-passes", action="store_true", help="list ldsopt passes and their options (MLIR's and IREE's: iree-opt --help)")
    add("--allow-unregistered-dialect", action="store_true",
        help="allow operations of dialects that are not registered")
    add("--mlir-print-ir-before", type=_pass_list, action="extend", default=[], metavar="PASS[,PASS]",
        help="print the IR before each run of the named passes (as named in a pipeline: cse, ldsopt-matmul-lds)")
    add("--mlir-print-ir-after", type=_pass_list, action="extend", default=[], metavar="PASS[,PASS]",
        help="print the IR after each run of the named passes")
    add("--mlir-print-ir-before-all", action="store_true", help="print the IR before every pass")
    add("--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass")
    add("--mlir-print-ir-after-change", action="store_true",
        help="with the flags above: print after a pass only if it changed the IR")
    add("--mlir-print-ir-after-failure", action="store_true", help="print the IR after a pass that failed")
    add("--mlir-print-ir-module-scope", action="store_true",
        help="print the whole module, not only the op the pass ran on (runs single-threaded, as MLIR needs)")
    add("--mlir-print-debuginfo", action="store_true", help="print locations (loc(...)) in dumps and output")
    add("--mlir-print-op-generic", action="store_true", help="print every op in its generic form")
    add("--mlir-elide-elementsattrs-if-larger", type=int, metavar="N",
        help="print elements attributes of more than N elements as dense_resource<__elided__>")
    add("--mlir-timing", action="store_true", help="print a report of the time each pass took (stderr)")
    add("--mlir-disable-threading", action="store_true",
        help="parse and verify the input on one thread too (passes always run on one thread)")
    add("--dump-pass-pipeline", action="store_true", help="print the pipeline as run, every option spelt out (stderr)")
    add("--show-dialects", action="store_true", help="list the dialects lds-opt can parse, and exit")
    add("--version", action="store_true", help="show the versions of ldsopt and IREE, and exit")
    add("--remarks", choices=["missed", "all"],
        help="say why each ldsopt pass left a dispatch to IREE (missed), and who lowered the rest (all)")
    add("--target", choices=[k for k, v in KNOWN.items() if v.target_info],
        help="target for IR that has no #iree_gpu.target around it")
    add("--upgrade-iree-syntax", action="store_true",
        help="rewrite early-2025 IREE syntax (as in seed 001) before parsing; also done when legacy syntax is detected")
    return ap, longs


def double_dashed(argv: list[str], longs: set[str]) -> list[str]:
    """LLVM's single-dash spelling of a long flag (`-pass-pipeline=...`, `-split-input-file`)
    as argparse's double-dash one; short flags (-o, -p) and anything after `--` are left alone."""
    out, rest = [], False
    for arg in argv:
        if arg == "--":
            rest = True
        if not rest and re.match(r"-[^-]", arg) and "-" + arg.split("=", 1)[0] in longs:
            arg = "-" + arg
        out.append(arg)
    return out


def main(argv=None) -> int:
    ap, longs = parser()
    args = ap.parse_args(double_dashed(sys.argv[1:] if argv is None else list(argv), longs))
    # The bindings, the passes and the pipeline machinery only once the arguments parse.
    from ldsopt.tools import opt_run
    return opt_run.run(args)


if __name__ == "__main__":
    sys.exit(main())
