"""lds-opt's work once its arguments parse (tools/lds_opt.py holds the arguments): read the
input, run the pipeline over each `// -----` chunk, report or verify the diagnostics, and
write the output without destroying what `-o` names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import traceback

from iree.compiler import ir, passmanager

from ldsopt import diagnostics, pipeline, registry, remarks, shared_context, syntax_upgrade
from ldsopt.cli import arguments, output_file
from ldsopt.run import iree_tools
from ldsopt.diagnostics import Diagnostic
from ldsopt.codegen.dispatch import dispatch_funcs
from ldsopt.codegen.kernel import LOWERED_BY

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


def program_remark_diagnostics(program_remarks: list[tuple[str, bool, str, str]], which: str | None) -> list[Diagnostic]:
    """--remarks: `missed` gives each op a program-level pass left alone, and why; `all` also
    what it did to the others (remarks.program_remark)."""
    if which is None:
        return []
    return [diagnostics.at(loc, "remark", f"{name}: {'' if passed else 'left alone: '}{message}")
            for loc, passed, name, message in program_remarks if which == "all" or not passed]


def printing(args) -> pipeline.Printing:
    return pipeline.Printing(
        before=frozenset(args.mlir_print_ir_before), after=frozenset(args.mlir_print_ir_after),
        before_all=args.mlir_print_ir_before_all, after_all=args.mlir_print_ir_after_all,
        after_change=args.mlir_print_ir_after_change, after_failure=args.mlir_print_ir_after_failure,
        module_scope=args.mlir_print_ir_module_scope, large_elements_limit=args.mlir_elide_elementsattrs_if_larger,
        debug_info=args.mlir_print_debuginfo, generic=args.mlir_print_op_generic)


def context(args) -> ir.Context:
    """The process's one context (ldsopt.shared_context), set for these arguments: every chunk
    is parsed in it, each with its own diagnostic handler (process_chunk)."""
    ctx = shared_context.get()
    ctx.allow_unregistered_dialects = args.allow_unregistered_dialect
    if args.mlir_disable_threading:
        ctx.enable_multithreading(False)
    return ctx


def process_chunk(text: str, args, path: str | None = None) -> tuple[str | None, list[Diagnostic]]:
    """Returns (printed module or None on failure, diagnostics); `path` is the file `text` is
    all of, if it is."""
    ctx = context(args)
    collected: list[Diagnostic] = []

    def handler(d):
        collected.append(diagnostics.from_mlir(d))
        return True

    handle = ctx.attach_diagnostic_handler(handler)
    try:
        module = _parse(text, ctx, args.upgrade_iree_syntax, path)
        if args.target:
            with ctx:
                module.operation.attributes["ldsopt.target"] = ir.StringAttr.get(args.target)
        if args.pass_pipeline:
            with remarks.collecting(ctx) as program_remarks:
                pipeline.run(module, args.pass_pipeline, printing(args), args.mlir_timing, args.dump_pass_pipeline)
            collected += program_remark_diagnostics(program_remarks, args.remarks)
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
    finally:
        handle.detach()  # the next chunk's diagnostics are its own


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
          f"`{iree_tools.tool('iree-opt')} --help` lists them.", file=stream)


def show_dialects(stream) -> None:
    """mlir-opt's --show-dialects for lds-opt's own context. The bindings cannot enumerate a
    dialect registry, so the names come from iree-opt of the same wheel, each kept only if
    this context loads it."""
    out = subprocess.run([iree_tools.tool("iree-opt"), "--show-dialects"], capture_output=True, text=True, check=True)
    names = out.stdout.split(":", 1)[1].replace(",", " ").split()
    ctx = shared_context.get()
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
        passmanager.PassManager("builtin.module", shared_context.get()).add(name)
        return True
    except ValueError:
        return False


def pipeline_error(e: pipeline.PipelineError, text: str) -> str:
    return "\n".join([f"{e.where('<pass-pipeline>')}: error: {e}"] + diagnostics.excerpt(text, 1, e.col))

def run(args) -> int:
    """lds-opt on parsed arguments; the exit status."""
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
