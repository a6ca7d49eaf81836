"""lds-opt: run a pass pipeline over an .mlir file, like mlir-opt / iree-opt.

    lds-opt in.mlir --pass-pipeline='builtin.module(ldsopt-lower-elementwise, cse)' [-o out.mlir]
    lds-opt --list-passes

Errors are printed as `file:line:col: error: message` and exit 1, never as a traceback
(set LDSOPT_TRACEBACK=1 to see one for an internal error).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import traceback

from iree.compiler import ir

from ldsopt import diagnostics, pipeline, registry, syntax_upgrade
from ldsopt.diagnostics import Diagnostic
from ldsopt.target import KNOWN

SPLIT_MARKER = re.compile(r"^// -----\s*$", re.M)


def split_chunks(text: str, split: bool) -> list[str]:
    """Chunks padded with newlines so that each keeps the file's real line numbers."""
    if not split:
        return [text]
    chunks, offset_lines = [], 0
    pos = 0
    for m in list(SPLIT_MARKER.finditer(text)) + [None]:
        end = m.start() if m else len(text)
        chunks.append("\n" * offset_lines + text[pos:end])
        if m:
            offset_lines = text.count("\n", 0, m.end())
            pos = m.end()
    return chunks


def _parse(text: str, ctx: ir.Context, upgrade: bool) -> ir.Module:
    if upgrade or syntax_upgrade.needs_upgrade(text):
        text = syntax_upgrade.upgrade_iree_syntax(text)
    return ir.Module.parse(text, ctx)


def process_chunk(text: str, args) -> tuple[str | None, list[Diagnostic]]:
    """Returns (printed module or None on failure, diagnostics)."""
    ctx = ir.Context()
    collected: list[Diagnostic] = []

    def handler(d):
        collected.append(diagnostics.from_mlir(d))
        return True

    ctx.attach_diagnostic_handler(handler)
    try:
        module = _parse(text, ctx, args.upgrade_iree_syntax)
        if args.target:
            with ctx:
                module.operation.attributes["ldsopt.target"] = ir.StringAttr.get(args.target)
        if args.pass_pipeline:
            pipeline.run(module, args.pass_pipeline, args.mlir_print_ir_after_all)
        elif not module.operation.verify():
            return None, collected
        if args.target:
            del module.operation.attributes["ldsopt.target"]
        return module.operation.get_asm(assume_verified=True), collected
    except ir.MLIRError as e:
        return None, collected + diagnostics.from_error(e)
    except syntax_upgrade.SyntaxUpgradeError as e:
        return None, collected + [Diagnostic("error", e.line, 1, e.message)]


_EXPECTED = re.compile(r"expected-(error|warning|remark|note)\s*(?:@([+-]\d+|above|below))?\s*\{\{(.*?)\}\}")


def expected_diagnostics(text: str) -> list[tuple[str, int, str]]:
    out = []
    lines = text.split("\n")
    for i, line in enumerate(lines, start=1):
        for m in _EXPECTED.finditer(line):
            sev, where, msg = m.groups()
            target = i
            if where in ("above", "below"):
                target = i - 1 if where == "above" else i + 1
            elif where:
                target = i + int(where)
            out.append((sev, target, msg))
    return out


def verify(diags: list[Diagnostic], expected: list[tuple[str, int, str]], filename: str) -> bool:
    """MLIR's --verify-diagnostics: each expected diagnostic must appear, nothing else."""
    flat = [d for top in diags for d in [top] + top.notes]
    remaining = list(expected)
    ok = True
    for d in flat:
        match = next((e for e in remaining if e[0] == d.severity and e[1] == d.line and e[2] in d.message), None)
        if match:
            remaining.remove(match)
        elif d.severity != "note":
            print(f"{filename}:{d.line}:{d.col}: error: unexpected {d.severity}: {d.message}", file=sys.stderr)
            ok = False
    for sev, line, msg in remaining:
        print(f"{filename}:{line}:1: error: expected {sev} \"{msg}\" was not produced", file=sys.stderr)
        ok = False
    return ok


def list_passes(stream) -> None:
    for name in registry.pass_names():
        cls = registry.lookup(name)
        print(f"{name}: {cls.SUMMARY}", file=stream)
        for opt, tp, default, help_text in cls.options():
            shown = ",".join(map(str, default)) if isinstance(default, tuple) else str(default).lower() \
                if isinstance(default, bool) else default
            print(f"    {opt}: {tp} = {shown}    {help_text}", file=stream)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="lds-opt", description=__doc__.split("\n")[0])
    ap.add_argument("input", nargs="?", default="-", help="input .mlir file, or - for stdin")
    ap.add_argument("-o", dest="output", default="-", help="output file (default stdout)")
    ap.add_argument("--pass-pipeline", default="", help="e.g. 'builtin.module(ldsopt-lower-elementwise,cse)'")
    ap.add_argument("--split-input-file", action="store_true", help="process each '// -----' chunk on its own")
    ap.add_argument("--verify-diagnostics", action="store_true",
                    help="check diagnostics against expected-error/warning/remark @+N {{...}} comments")
    ap.add_argument("--list-passes", action="store_true", help="list ldsopt passes and their options")
    ap.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass")
    ap.add_argument("--target", choices=[k for k, v in KNOWN.items() if v.target_info],
                    help="target for IR that has no #iree_gpu.target around it")
    ap.add_argument("--upgrade-iree-syntax", action="store_true",
                    help="rewrite early-2025 IREE syntax (as in seed 001) before parsing; "
                         "also done when legacy syntax is detected")
    args = ap.parse_args(argv)

    if args.list_passes:
        list_passes(sys.stdout)
        return 0
    filename = args.input if args.input != "-" else "<stdin>"
    try:
        text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    except OSError as e:
        print(f"{filename}: error: cannot read input: {e.strerror}", file=sys.stderr)
        return 1
    if args.pass_pipeline:
        try:
            pipeline.parse(args.pass_pipeline)
        except pipeline.PipelineError as e:
            print(f"<pass-pipeline>: error: {e}", file=sys.stderr)
            return 1

    outputs, ok = [], True
    for chunk in split_chunks(text, args.split_input_file):
        try:
            out, diags = process_chunk(chunk, args)
        except pipeline.PipelineError as e:
            print(f"<pass-pipeline>: error: {e}", file=sys.stderr)
            return 1
        except Exception as e:  # a bug in a pass: say so plainly, with a way to see more
            if os.environ.get("LDSOPT_TRACEBACK"):
                traceback.print_exc()
            print(f"{filename}: error: internal error: {type(e).__name__}: {e} "
                  "(set LDSOPT_TRACEBACK=1 for a traceback)", file=sys.stderr)
            return 1
        if args.verify_diagnostics:
            ok &= verify(diags, expected_diagnostics(chunk), filename)
        else:
            diagnostics.report(filename, diags)
            ok &= out is not None
        if out is not None:
            outputs.append(out)

    result = "\n// -----\n".join(o.rstrip("\n") for o in outputs) + "\n" if outputs else ""
    if args.output == "-":
        sys.stdout.write(result)
    elif ok:  # as mlir-opt: a failed run leaves no output file, not even a partial one
        with open(args.output, "w") as f:
            f.write(result)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
