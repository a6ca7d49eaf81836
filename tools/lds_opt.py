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
import os
import re
import subprocess
import sys
import traceback

from iree.compiler import ir, passmanager

from ldsopt import diagnostics, pipeline, registry, remarks, syntax_upgrade
from ldsopt.cli import arguments, output_file
from ldsopt.run import replay
from ldsopt.diagnostics import Diagnostic
from ldsopt.codegen.dispatch import dispatch_funcs
from ldsopt.codegen.kernel import LOWERED_BY
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


def _parse(text: str, ctx: ir.Context, upgrade: bool, path: str | None = None) -> ir.Module:
    """`text` as a module; parsed from `path`, the file it is all of, where given, so that its
    locations name the file (as mlir-opt's do: --mlir-print-debuginfo shows them)."""
    if upgrade or syntax_upgrade.needs_upgrade(text):
        return ir.Module.parse(syntax_upgrade.upgrade_iree_syntax(text), ctx)
    return ir.Module.parseFile(path, ctx) if path is not None else ir.Module.parse(text, ctx)


def _root_location(func: ir.Operation) -> ir.Location:
    """Where a dispatch's computation is written: its first linalg op that is not a fill,
    else the function."""
    for op in func.regions[0].blocks[0].operations:
        if op.operation.name.startswith(("linalg.", "iree_linalg_ext.")) and op.operation.name != "linalg.fill":
            return op.location
    return func.location


def remark_diagnostics(module: ir.Module, which: str | None) -> list[Diagnostic]:
    """--remarks: `missed` gives each pass's reason for each dispatch that no pass lowered;
    `all` also says which passes lowered the others."""
    if which is None:
        return []
    out = []
    for func in dispatch_funcs(module.operation):
        loc = _root_location(func)
        if LOWERED_BY in func.attributes:
            if which == "all":
                passes = ", ".join(ir.StringAttr(a).value for a in ir.ArrayAttr(func.attributes[LOWERED_BY]))
                out.append(diagnostics.at(loc, "remark", f"lowered by {passes}"))
            continue
        out += [diagnostics.at(loc, "remark", f"{name}: left to IREE: {why}")
                for name, why in remarks.reasons(func).items()]
    return out


def printing(args) -> pipeline.Printing:
    return pipeline.Printing(
        before=frozenset(args.mlir_print_ir_before), after=frozenset(args.mlir_print_ir_after),
        before_all=args.mlir_print_ir_before_all, after_all=args.mlir_print_ir_after_all,
        after_change=args.mlir_print_ir_after_change, after_failure=args.mlir_print_ir_after_failure,
        module_scope=args.mlir_print_ir_module_scope, large_elements_limit=args.mlir_elide_elementsattrs_if_larger,
        debug_info=args.mlir_print_debuginfo, generic=args.mlir_print_op_generic)


def new_context(args) -> ir.Context:
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = args.allow_unregistered_dialect
    if args.mlir_disable_threading:
        ctx.enable_multithreading(False)
    return ctx


def process_chunk(text: str, args, path: str | None = None) -> tuple[str | None, list[Diagnostic]]:
    """Returns (printed module or None on failure, diagnostics); `path` is the file `text` is
    all of, if it is."""
    ctx = new_context(args)
    collected: list[Diagnostic] = []

    def handler(d):
        collected.append(diagnostics.from_mlir(d))
        return True

    ctx.attach_diagnostic_handler(handler)
    try:
        module = _parse(text, ctx, args.upgrade_iree_syntax, path)
        if args.target:
            with ctx:
                module.operation.attributes["ldsopt.target"] = ir.StringAttr.get(args.target)
        if args.pass_pipeline:
            pipeline.run(module, args.pass_pipeline, printing(args), args.mlir_timing, args.dump_pass_pipeline)
            collected += remark_diagnostics(module, args.remarks)
        elif not module.operation.verify():
            return None, collected
        if args.target:
            del module.operation.attributes["ldsopt.target"]
        return module.operation.get_asm(large_elements_limit=args.mlir_elide_elementsattrs_if_larger,
                                        enable_debug_info=args.mlir_print_debuginfo,
                                        print_generic_op_form=args.mlir_print_op_generic,
                                        assume_verified=True), collected
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
        for opt, tp, default, allowed, help_text in cls.options():
            shown = ",".join(map(str, default)) if isinstance(default, tuple) else str(default).lower() \
                if isinstance(default, bool) else default if default != "" else '""'
            print(f"    {opt}: {tp} = {shown}" + (f" ({allowed})" if allowed else "") + f"    {help_text}", file=stream)
    print("\nA pipeline may also hold any MLIR or IREE pass (cse, canonicalize, iree-codegen-...): "
          f"`{replay.tool('iree-opt')} --help` lists them.", file=stream)


def show_dialects(stream) -> None:
    """mlir-opt's --show-dialects for lds-opt's own context. The bindings cannot enumerate a
    dialect registry, so the names come from iree-opt of the same wheel, each kept only if
    this context loads it."""
    out = subprocess.run([replay.tool("iree-opt"), "--show-dialects"], capture_output=True, text=True, check=True)
    names = out.stdout.split(":", 1)[1].replace(",", " ").split()
    ctx = ir.Context()
    available = []
    for name in names:
        try:
            ctx.get_dialect_descriptor(name)
            available.append(name)
        except ValueError:
            pass
    print("Available Dialects: " + ",".join(available), file=stream)


def version() -> str:
    import importlib.metadata  # for --version only: its import costs every start
    return (f"lds-opt (ldsopt {importlib.metadata.version('ldsopt')}), on IREE's MLIR Python bindings "
            f"(iree-base-compiler {importlib.metadata.version('iree-base-compiler')})")


def known_pass(name: str) -> bool:
    """Whether --mlir-print-ir-before/after=`name` names a pass: ldsopt's, or one MLIR's
    pipeline parser knows (it does not check anchors when a pass is added)."""
    if registry.is_registered(name):
        return True
    try:
        passmanager.PassManager("builtin.module", ir.Context()).add(name)
        return True
    except ValueError:
        return False


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


def pipeline_error(e: pipeline.PipelineError, text: str) -> str:
    return "\n".join([f"{e.where('<pass-pipeline>')}: error: {e}"] + diagnostics.excerpt(text, 1, e.col))


def main(argv=None) -> int:
    ap, longs = parser()
    args = ap.parse_args(double_dashed(sys.argv[1:] if argv is None else list(argv), longs))

    if args.list_passes:
        list_passes(sys.stdout)
        return 0
    if args.version:
        print(version())
        return 0
    if args.show_dialects:
        show_dialects(sys.stdout)
        return 0
    for name in args.mlir_print_ir_before + args.mlir_print_ir_after:
        if not known_pass(name):
            print(f"lds-opt: error: --mlir-print-ir-before/after: '{name}' is not a pass "
                  "(lds-opt --list-passes, iree-opt --help)", file=sys.stderr)
            return 1
    try:
        arguments.count("--mlir-elide-elementsattrs-if-larger", args.mlir_elide_elementsattrs_if_larger,
                        high=arguments.UINT_MAX)
        output_file.check(args.output)
    except arguments.ArgumentError as e:
        print(e.format("lds-opt"), file=sys.stderr)
        return 1
    except output_file.OutputError as e:
        print(e.format(), file=sys.stderr)
        return 1
    filename = args.input if args.input != "-" else "<stdin>"
    try:
        text = diagnostics.read_text(args.input)
    except diagnostics.InputError as e:
        print(e.format(filename), file=sys.stderr)
        return 1
    if args.pass_pipeline:
        try:
            pipeline.parse(args.pass_pipeline)
        except pipeline.PipelineError as e:
            print(pipeline_error(e, args.pass_pipeline), file=sys.stderr)
            return 1

    outputs, ok = [], True
    whole_file = args.input if args.input != "-" and not args.split_input_file else None
    for chunk in split_chunks(text, args.split_input_file):
        try:
            out, diags = process_chunk(chunk, args, whole_file)
        except pipeline.PipelineError as e:
            print(pipeline_error(e, args.pass_pipeline), file=sys.stderr)
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
            diagnostics.report(filename, diags, text)
            ok &= out is not None
        outputs.append(out)

    # Byte for byte as mlir-opt: a chunk that failed prints nothing between its markers.
    result = "// -----\n".join(o.rstrip("\n") + "\n\n" if o is not None else "" for o in outputs)
    # A failed run leaves no output file, not even an empty one (as mlir-opt); stdout gets
    # what succeeded. output_file never replaces a device, a FIFO or a symlink.
    if ok or args.output == output_file.STDOUT:
        try:
            output_file.write(args.output, result)
        except output_file.OutputError as e:
            print(e.format(), file=sys.stderr)
            return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
