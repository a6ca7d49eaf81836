"""The compile half of lds-run and lds-bench: IREE round trips with ldsopt in the middle.

    source.mlir --ldsopt program pipeline (in process)-->                 program
                --iree-compile --compile-to=executable-configurations--> configured
                --ldsopt pipeline (in process)-->                         ours
                --iree-compile --compile-from=executable-configurations--> .vmfb

A dispatch no ldsopt pass takes keeps IREE's own configuration; `dispatch_report` says
which is which. The reference is the *original* source (before the program pipeline)
compiled for llvm-cpu, promoted to f64 where that is faithful (`ldsopt.run.reference`), on the
same inputs; `prepare` records which reference ran and the tolerance of each output.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess

import numpy as np
from iree.compiler import ir

from ldsopt import diagnostics, pipeline, remarks, shared_context, syntax_upgrade
from ldsopt.cli import output_file
from ldsopt import target as target_model
from ldsopt.run import caller_storage, compile_cache, model_import, numpy_reference, parameters
from ldsopt.run import inputs as inputs_mod
from ldsopt.run import record as run_record
from ldsopt.run import formation, pipelines, ptxas_check
from ldsopt.run import reference as reference_mod
from ldsopt.run import reference_companions as companions
from ldsopt.codegen.kernel import LOWERED_BY, USER_CONFIG, recorded_bank_conflicts
from ldsopt.run.iree_tools import COMMANDS, log_command, run_module, tool
from ldsopt.run.tensor_file import DTYPES, FLOATS, Tensor, as_float64
from ldsopt.run.value_check import output_tolerances

# The default pipelines (ldsopt/run/pipelines.py), under the names the tools and tests use.
PROGRAM_PIPELINE, DEFAULT_PIPELINE = pipelines.PROGRAM_PIPELINE, pipelines.DEFAULT_PIPELINE


# How IREE forms the dispatches of the ldsopt variant (the reference and IREE's default
# variant, --baseline and lds-bench's iree-default, keep IREE's defaults):
# - no constants inlined into dispatches: a model's small weights (a layer norm's gamma and
#   beta, a bias) are bindings like any other operand, which the passes read as they read
#   inputs, instead of tensor constants inside the dispatch, which no pass takes;
# - aggressive fusion where it pays (`form_dispatches`): IREE keeps it behind a flag because
#   not all of its backends compile what it forms. With it, the chained row reductions of a
#   softmax, layer norm or logsumexp become one dispatch instead of two, which
#   ldsopt-vector-distribute takes as one kernel that reads each row once; but it also fuses
#   producers no pass takes with them (a transposing elementwise op before a reduction).
# - early truncation fusion on top (`form_dispatches`, where it forms fewer): a matmul's f32 -> f16
#   cast joins its bias and the dispatch the result feeds instead of a cast dispatch of its
#   own, as in a BERT layer's Q, K and V projections (one dispatch and two calls fewer, and
#   the layer faster on the H200: bench/results/cuda-models/README.md).
NO_INLINED_CONSTANTS = ("--iree-flow-inline-constants-max-byte-length=0",)
# A module whose functions take a wait and a signal fence after their arguments (IREE's
# coarse-fences ABI), so that calls can be issued back to back (`ldsopt.measure.back_to_back`).
ASYNC_CALLS = "--iree-execution-model=async-external"
AGGRESSIVE_FUSION = ("--iree-dispatch-creation-enable-aggressive-fusion",)
EARLY_TRUNC_FUSION = ("--iree-dispatch-creation-enable-early-trunc-fusion",)
# The formations form_dispatches tries, in this order (a tie goes to the earlier one).
FORMATIONS = (NO_INLINED_CONSTANTS, NO_INLINED_CONSTANTS + AGGRESSIVE_FUSION,
              NO_INLINED_CONSTANTS + AGGRESSIVE_FUSION + EARLY_TRUNC_FUSION)


class DriverError(Exception):
    """A user-facing failure: bad input, a failed compile, a missing function. `where` is
    the location the tools print before `error:` (file:line:col) where there is a better
    one than the input's name."""

    def __init__(self, message: str, where: str | None = None):
        super().__init__(message)
        self.where = where


def iree_compile(args: list[str], what: str, folder: str | None = None) -> None:
    """Runs iree-compile, or copies its output from the compile cache (`compile_cache`, off
    unless the environment turns it on); with `folder`, the command line is logged in its
    commands.sh."""
    exe = tool("iree-compile")
    if folder is not None:
        log_command(folder, what, [exe] + args)
    key = compile_cache.key(exe, args)
    if key is not None and compile_cache.restore(key, args):
        return
    proc = subprocess.run([exe] + args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise DriverError(f"{what} failed:\n{proc.stderr.strip()}")
    if key is not None:
        compile_cache.store(key, args)


@dataclasses.dataclass
class Signature:
    function: str
    inputs: list[tuple[list[int], str]]
    outputs: list[tuple[list[int], str]]


def _tensor(t: ir.Type, what: str, where: str, dynamic: bool = False) -> tuple[list[int], str]:
    """(shape, element type) of an argument or result of the entry function, -1 for a dynamic
    dim where `dynamic`; DriverError, located at `where` (the function), for what lds-run
    cannot make inputs for or compare."""
    if not isinstance(t, ir.RankedTensorType) or not (dynamic or t.has_static_shape):
        raise DriverError(f"{what}: only statically shaped tensors are supported, got {t}", where)
    if str(t.element_type) not in DTYPES:
        raise DriverError(f"{what}: element type {t.element_type} is not supported (lds-run takes "
                          f"{', '.join(DTYPES)})", where)
    return [-1 if ir.ShapedType.is_dynamic_size(d) else d for d in t.shape], str(t.element_type)


def read_source(path: str, archive: str | None = None) -> str:
    """The program at `path`: linalg MLIR as it is (early-2025 IREE syntax upgraded), or a
    model (ONNX, torch-dialect MLIR) lowered to linalg by `model_import`; DriverError if it
    is neither. `archive`: an ONNX model's weights go there (`model_import.import_onnx`)."""
    try:
        if path.endswith(".onnx"):
            return model_import.lower_torch(model_import.import_onnx(path, archive))
        text = diagnostics.read_text(path)
        if model_import.is_torch_dialect(text):
            return model_import.lower_torch(text)
    except model_import.ModelImportError as e:
        raise DriverError(str(e), path) from None
    except diagnostics.InputError as e:
        d = e.diagnostic
        raise DriverError(d.message, f"{path}:{d.line}:{d.col}" if d.line is not None else path) from None
    return syntax_upgrade.upgrade_iree_syntax(text) if syntax_upgrade.needs_upgrade(text) else text


def read_to_archive(path: str, parameters_folder: str) -> tuple[str, parameters.Archive]:
    """`read_source` of an ONNX model whose weights go to `parameters_folder`/weights.irpa
    (`--weights-to-archive`), and that archive; DriverError for another input. A folder made
    here for it is removed again if the import fails."""
    if not path.endswith(".onnx"):
        raise DriverError("--weights-to-archive takes an ONNX model (a program's weights are already inline "
                          "or given with --parameters)", path)
    made = not os.path.isdir(parameters_folder)
    os.makedirs(parameters_folder, exist_ok=True)
    archive = os.path.join(parameters_folder, "weights.irpa")
    try:
        text = read_source(path, archive)
    except DriverError:
        if made and not os.listdir(parameters_folder):
            os.rmdir(parameters_folder)
        raise
    return text, parameters.Archive(model_import.ARCHIVE_SCOPE, archive)


def signature(text: str, function: str | None, path: str = "<input>", dynamic: bool = False) -> Signature:
    """The entry function's signature (with -1 for dynamic dims of its arguments where
    `dynamic`); a program that does not parse is a DriverError located in `path` (whose text
    `text` is), with the source line and a caret, as lds-opt shows it."""
    with shared_context.get() as ctx:
        try:
            module = ir.Module.parse(text, ctx)
        except ir.MLIRError as e:
            first, *rest = diagnostics.from_error(e)
            where, _, shown = first.format(path, text).partition(": error: ")
            raise DriverError("\n".join([shown] + [d.format(path, text) for d in rest]), where) from None
        funcs = [op.operation for op in module.body.operations if op.operation.name == "func.func" and len(op.regions[0].blocks)
                 and "sym_visibility" not in op.attributes]
        names = [ir.StringAttr(f.attributes["sym_name"]).value for f in funcs]
        if function is None:
            if len(funcs) != 1:
                raise DriverError(f"expected exactly one public function, found {names or 'none'}: use --function")
            function = names[0]
        if function not in names:
            raise DriverError(f"no public function '{function}' (public functions: {names})")
        func = funcs[names.index(function)]
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        at = diagnostics.at(func.location, "error", "")
        where = f"{path}:{at.line}:{at.col}" if at.line is not None else path
        if not ftype.results:
            raise DriverError(f"@{function} returns nothing: there would be nothing to compare", where)
        return Signature(function, [_tensor(t, f"argument {i}", where, dynamic) for i, t in enumerate(ftype.inputs)],
                         [_tensor(t, f"result {i}", where, dynamic) for i, t in enumerate(ftype.results)])


def check_buffer_sizes(sig: Signature, tgt: target_model.KnownTarget) -> None:
    """Refuses tensors larger than one binding of the target can cover."""
    if tgt.max_buffer_bytes is None:
        return
    for what, tensors in (("argument", sig.inputs), ("result", sig.outputs)):
        for i, (shape, dtype) in enumerate(tensors):
            nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(DTYPES[dtype][0]).itemsize
            if nbytes > tgt.max_buffer_bytes:
                raise DriverError(f"{what} {i} ({nbytes} bytes) is larger than a {tgt.name} storage buffer "
                                  f"binding can be ({tgt.max_buffer_bytes} bytes): its values would be garbage")


def with_device_target(text: str, tgt: target_model.KnownTarget) -> str:
    """Puts the target's hal.device.targets on the module (lavapipe has no IREE flag)."""
    if tgt.module_targets is None:
        return text
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        module.operation.attributes["hal.device.targets"] = ir.ArrayAttr.get([ir.Attribute.parse(tgt.module_targets)])
        return str(module)


def configure(text: str, tgt: target_model.KnownTarget, folder: str, extra: tuple[str, ...] = ()) -> str:
    src = os.path.join(folder, "source.mlir")
    out = os.path.join(folder, "configured.mlir")
    output_file.write(src, with_device_target(mark_user_configs(text), tgt))
    iree_compile([src, *tgt.compile_flags, "--compile-to=executable-configurations", "-o", out, *extra],
                 "iree-compile --compile-to=executable-configurations", folder)
    with open(out) as f:
        return f.read()


def form_dispatches(program: str, tgt: target_model.KnownTarget, folder: str, pipeline_text: str,
                    extra: tuple[str, ...] = ()) -> tuple[tuple[str, ...], str, list[dict]]:
    """How IREE forms the ldsopt variant's dispatches (see NO_INLINED_CONSTANTS): the first
    of FORMATIONS (each also with the padding fused: ldsopt/run/formation.py) that ranks best
    (`formation.score`: the fewest dispatches left to IREE first). Decided by configuring the
    program each way and running the ldsopt pipeline; once a way gives one dispatch that ldsopt
    lowers, the later ones are not tried (nothing does better). Returns the flags, the module
    after the pipeline and its dispatch report; `folder`'s configured.mlir is the chosen way's."""
    best = None
    for flags in formation.ways(program, FORMATIONS):
        configured = configure(program, tgt, folder, flags + extra)
        if best is not None and configured == best[2]:
            continue  # the same dispatches as an earlier way's: the same result
        lowered, report = apply_ldsopt(configured, pipeline_text)
        score = formation.score(report, lowered)
        if best is None or score < best[0]:
            best = (score, flags, configured, lowered, report)
        if score == (0, 0, 1):
            break
    _, flags, configured, lowered, report = best
    output_file.write(os.path.join(folder, "configured.mlir"), configured)
    return flags, lowered, report


def dispatch_flags(program: str, tgt: target_model.KnownTarget, folder: str, pipeline_text: str,
                   extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The flags of form_dispatches' choice."""
    return form_dispatches(program, tgt, folder, pipeline_text, extra)[0]


def apply_ldsopt(configured: str, pipeline_text: str) -> tuple[str, list[dict]]:
    with shared_context.get() as ctx:
        module = _run_pipeline(ir.Module.parse(configured, ctx), pipeline_text, "ldsopt pipeline", "configured.mlir",
                               configured)
        return str(module), dispatch_report(module)


def apply_program_pipeline(text: str, pipeline_text: str, target: str | None = None) -> str:
    """The program after `pipeline_text` (PROGRAM_PIPELINE); unchanged for an empty pipeline.
    `target` (a known target's name) is the one its passes see (`target.of_op`), as lds-opt
    --target gives it: e.g. ldsopt-split-attention reads its compute units."""
    if not pipeline_text:
        return text
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        if target is not None and target_model.known(target).target_info:
            module.operation.attributes["ldsopt.target"] = ir.StringAttr.get(target)
        module = _run_pipeline(module, pipeline_text, "ldsopt program pipeline", "<program>", text)
        if "ldsopt.target" in module.operation.attributes:
            del module.operation.attributes["ldsopt.target"]
        return str(module)


def _run_pipeline(module: ir.Module, pipeline_text: str, what: str, ir_name: str, source: str) -> ir.Module:
    """Runs the pipeline; a failure is a DriverError whose diagnostics are located in the IR
    it ran on, `ir_name` (configured.mlir: the file lds-run --emit-dir keeps), each with its
    line of `source`, the text of that IR, and a caret."""
    try:
        pipeline.run(module, pipeline_text)
    except pipeline.PipelineError as e:
        raise DriverError(f"{what}: {e}") from None
    except ir.MLIRError as e:
        raise DriverError(f"{what} failed:\n" + "\n".join(
            d.format(ir_name, source) for d in diagnostics.from_error(e))) from None
    return module


# The export a stream dispatch names: @executable::@variant::@export.
_DISPATCHED = re.compile(r"stream\.cmd\.dispatch @[\w.$-]+::@[\w.$-]+::@([\w.$-]+)")


def dispatch_report(module: ir.Module) -> list[dict]:
    """For each dispatch: its name, IREE pipeline, the ldsopt passes that lowered it, for one
    no pass lowered each pass's reason (`remarks`), and the bank conflicts recorded on the
    LDS buffers its planner priced (`kernel.recorded_bank_conflicts`); `at_load` where only the
    module's initializers dispatch it (it runs once, when the module loads, e.g. the
    concatenation of weights that ldsopt-fuse-projections asks for), not in each call."""
    out = []
    at_load, per_call = set(), set()
    for op in module.body.operations:  # the host program's functions (not the executables' kernels)
        if op.name in ("util.initializer", "util.func", "func.func"):
            (at_load if op.name == "util.initializer" else per_call).update(_DISPATCHED.findall(str(op)))
    at_load -= per_call

    def visit(op):
        if op.name == "func.func" and op.parent is not None and op.parent.name == "builtin.module" \
                and "translation_info" in op.attributes:
            info = str(op.attributes["translation_info"])
            pm = re.search(r"pipeline<(\w+)>", info)
            passes = [ir.StringAttr(a).value for a in op.attributes[LOWERED_BY]] if LOWERED_BY in op.attributes else []
            name = ir.StringAttr(op.attributes["sym_name"]).value
            out.append({"name": name, "pipeline": pm.group(1) if pm else info, "passes": passes,
                        "missed": {} if passes else remarks.reasons(op),
                        "bank_conflicts": recorded_bank_conflicts(op), **({"at_load": True} if name in at_load else {})})
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return out


def compile_module(text: str, folder: str, name: str, dump: bool = False, extra: tuple[str, ...] = ()) -> str:
    src = os.path.join(folder, name + ".mlir")
    vmfb = os.path.join(folder, name + ".vmfb")
    output_file.write(src, text)
    flags = [src, "--compile-from=executable-configurations", "-o", vmfb, *extra]
    if dump:
        flags.append(f"--iree-hal-dump-executable-files-to={os.path.join(folder, 'executables')}")
    iree_compile(flags, "iree-compile --compile-from=executable-configurations", folder)
    return vmfb


_GPU_CONFIG_ATTRS = ("compilation_info", "lowering_config")


def mark_user_configs(text: str) -> str:
    """The program with USER_CONFIG on every op that carries a GPU lowering config, so that
    passes can tell the user's configs from those IREE's configuration adds (the attribute
    survives dispatch formation and configuration); unchanged if there are none."""
    if not any(name in text for name in _GPU_CONFIG_ATTRS):
        return text
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)

        def mark(op):
            if any(name in op.attributes for name in _GPU_CONFIG_ATTRS):
                op.attributes[USER_CONFIG] = ir.UnitAttr.get()
            return ir.WalkResult.ADVANCE

        module.operation.walk(mark)
        return str(module)


def without_gpu_configs(text: str) -> str:
    """The program less GPU lowering configs (llvm-cpu rejects them) and dispatch regions: the same values."""
    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)

        def strip(op):
            for name in _GPU_CONFIG_ATTRS:
                if name in op.attributes:
                    del op.attributes[name]
            return ir.WalkResult.ADVANCE

        module.operation.walk(strip)
        reference_mod.inline_dispatch_regions(module)
        return str(module)


REFERENCE_ENGINES = ("auto", "numpy", "llvm-cpu")


@dataclasses.dataclass
class Reference:
    expected: list[Tensor]                # the reference outputs
    info: dict                            # what ran (the manifest's `reference`)
    sensitivity: list[Tensor | None]      # per output (`reference_companions`)
    as_written: list[list[Tensor]]        # per output, where over/underflow changes a class


def reference(text: str, sig: Signature, inputs: list[Tensor], folder: str, engine: str = "auto",
              archives: list[parameters.Archive] = (), seed: int = 0) -> Reference:
    """Runs the original program, promoted to f64 where `ldsopt.run.reference` can (its inputs then
    widened to f64, exactly), on `engine`: numpy (`ldsopt.run.numpy_reference`), IREE's llvm-cpu
    backend, or "auto": numpy where it evaluates every op of a program it takes (one promoted
    to f64, or without floats), llvm-cpu for the rest. Returns the reference outputs (f64 for
    the float outputs of a promoted program) and what ran: `engine`, `precision` "f64" or
    "program", why not promoted, why numpy did not evaluate it (`numpy_refused`), and for a
    float output of an unpromoted program the longest reduction (the tolerances grow with it);
    and what the check needs beside it (`reference_companions`: each element's sensitivity,
    moves of the inputs drawn from `seed`; the program as written where overflow differs)."""
    as_written = without_gpu_configs(text)
    promotion = reference_mod.promote_to_f64(as_written)
    evaluable = promotion.promoted or promotion.why == reference_mod.NO_FLOATS
    refused = None
    if engine == "numpy" and not evaluable:
        raise DriverError(f"the numpy reference takes programs promoted to f64 only; this one is not "
                          f"({promotion.why})")
    if engine in ("auto", "numpy") and evaluable:
        try:
            return _numpy_reference(text, as_written, sig, inputs, folder, promotion, archives, seed)
        except numpy_reference.AssertionFailed as e:
            raise DriverError(f"the inputs are refused: {e}; nothing was run") from None
        except Exception as e:  # Unsupported, or an evaluator bug: llvm-cpu still gives the reference
            why = str(e) if isinstance(e, numpy_reference.Unsupported) else f"internal error: {e!r}"
            if engine == "numpy":
                raise DriverError(f"the numpy reference cannot evaluate the program: {why}") from None
            refused = why
    ref = _llvm_cpu_reference(text, as_written, sig, inputs, folder, promotion, archives, seed)
    ref.info["numpy_refused"] = refused
    return ref


def _widened(promotion: reference_mod.Promotion, dtype: str) -> str:
    return "f64" if promotion.promoted and dtype in FLOATS else dtype


def _numpy_reference(text: str, as_written: str, sig: Signature, inputs: list[Tensor], folder: str,
                     promotion: reference_mod.Promotion, archives: list[parameters.Archive], seed: int) -> Reference:
    stored = [t.load(folder) for t in inputs]
    arrays = [as_float64(a, t.dtype) if _widened(promotion, t.dtype) != t.dtype else a for a, t in zip(stored, inputs)]
    store = parameters.Store(archives) if archives else None
    values = numpy_reference.evaluate(promotion.text, sig.function, arrays, store)
    expected = []
    for i, ((shape, dtype), value) in enumerate(zip(sig.outputs, values)):
        t = Tensor(shape, _widened(promotion, dtype), f"expected{i}.bin")
        t.save(folder, np.asarray(value).reshape(shape))
        expected.append(t)
    info = reference_mod.info("numpy", text, sig.outputs, promotion)
    dtypes = [_widened(promotion, t.dtype) for t in inputs]
    sensitivity = companions.numpy_sensitivity(promotion.text, sig.function, arrays, dtypes, sig.outputs, values,
                                               folder, seed, info["computes_in"], store)
    written = companions.as_written(as_written, sig.function, stored, [t.dtype for t in inputs], sig.outputs, values,
                                    folder, store) if promotion.promoted else [[] for _ in sig.outputs]
    return Reference(expected, info, sensitivity, written)


def _llvm_cpu_reference(text: str, as_written: str, sig: Signature, inputs: list[Tensor], folder: str,
                        promotion: reference_mod.Promotion, archives: list[parameters.Archive],
                        seed: int) -> Reference:
    """The reference on llvm-cpu: `promotion`'s program, or `as_written` (the program without
    GPU configs) where llvm-cpu cannot compile the promoted one; either with its windows'
    inputs trimmed (`reference.windows_trimmed`) where llvm-cpu cannot compile it as it is."""
    cpu = target_model.known("llvm-cpu")
    src = os.path.join(folder, "reference_source.mlir")
    vmfb = os.path.join(folder, "reference.vmfb")

    trimmed = []  # compiled with its windows' inputs trimmed: llvm-cpu failed on the program as written

    def compile_reference(program: str) -> None:
        trimmed.clear()
        output_file.write(src, program)
        build = [src, *cpu.compile_flags, "-o", vmfb]
        try:
            iree_compile(build, "reference compile (llvm-cpu)", folder)
        except DriverError:
            if (windows := reference_mod.windows_trimmed(program)) is None:
                raise
            output_file.write(src, windows)
            iree_compile(build, "reference compile (llvm-cpu), its windows' inputs trimmed", folder)
            trimmed.append(True)

    def run_reference(promotion: reference_mod.Promotion) -> tuple[list[Tensor], list[Tensor]]:
        ref_inputs = [t if _widened(promotion, t.dtype) == t.dtype else Tensor(t.shape, "f64", f"reference_input{i}.bin")
                      for i, t in enumerate(inputs)]
        for t, r in ((t, r) for t, r in zip(inputs, ref_inputs) if r is not t):
            r.save(folder, as_float64(t.load(folder), t.dtype))
        expected = [Tensor(shape, _widened(promotion, dtype), f"expected{i}.bin")
                    for i, (shape, dtype) in enumerate(sig.outputs)]
        try:
            run_module(vmfb, sig.function, cpu.device, ref_inputs, expected, folder, tuple(a.flag for a in archives))
        except RuntimeError as e:
            raise DriverError(f"reference run (llvm-cpu) failed: {e}") from None
        return ref_inputs, expected

    try:
        compile_reference(promotion.text)
    except DriverError as e:
        if not promotion.promoted:
            raise
        # llvm-cpu lowers some math only in f32 (math.erf in f64 is illegal there).
        first = next((line for line in str(e).splitlines() if "error:" in line), str(e))
        why = first.split("error:", 1)[-1].split(": ", 1)[0].strip()  # the message, not the op it prints
        promotion = reference_mod.Promotion(as_written, False, f"llvm-cpu cannot compile it in f64: {why}")
        compile_reference(as_written)
    try:
        ref_inputs, expected = run_reference(promotion)
    except DriverError as e:
        if not promotion.promoted:
            raise
        # IREE 3.13 runs some promoted programs out of their buffers (rank-0 f64 and i32
        # results: OUT_OF_RANGE); the program as written runs.
        status = next((w for w in str(e).split() if w.endswith(";") and w[:-1].isupper()), "an error;")
        promotion = reference_mod.Promotion(as_written, False, f"llvm-cpu fails to run it in f64: {status[:-1]}")
        compile_reference(as_written)
        ref_inputs, expected = run_reference(promotion)
    info = reference_mod.info("llvm-cpu", text, sig.outputs, promotion, bool(trimmed))
    sensitivity = companions.llvm_cpu_sensitivity(vmfb, sig.function, cpu.device, ref_inputs, expected, folder, seed,
                                                  info["computes_in"], tuple(a.flag for a in archives))
    return Reference(expected, info, sensitivity, [[] for _ in expected])


def prepare(source_path: str, target_name: str, folder: str, *, function: str | None = None, seed: int = 0,
            pipeline_text: str = DEFAULT_PIPELINE, program_pipeline: str = PROGRAM_PIPELINE,
            baseline: bool = False, dump: bool = False, atol: float | None = None, rtol: float | None = None,
            run_reference: bool = True, special_values: bool = False, reference_engine: str = "auto",
            given: inputs_mod.Options | None = None, archives: list[parameters.Archive] = (),
            parameters_folder: str | None = None, weights_to_archive: bool = False, keep_dynamic: bool = False,
            async_calls: bool = False) -> dict:
    """Compiles `source_path` for `target_name` into `folder` with inputs (`given`'s values,
    the rest `inputs.random_inputs`, with special values if asked, within the bounds the
    program's table reads set: inputs that would read out of bounds are refused before
    anything is compiled), reference outputs and a manifest that `replay.replay` runs
    anywhere the runtime is installed. A program with dynamic dims is specialized to its
    inputs' shapes first (`keep_dynamic`: for the reference only). The parameter `archives`
    are placed in `parameters_folder` (default `folder/parameters`), read there by every
    module of the folder. Unless `baseline`,
    `program_pipeline` runs on the program first; the reference runs the original. The
    manifest records the reference that ran and the tolerances of each output (`atol`/`rtol`
    where given). `weights_to_archive`: an ONNX model's weights become parameters of one more
    archive (`model_import.import_onnx`), placed with the others. `async_calls`: the module's
    functions take fences (ASYNC_CALLS), and the entry function its results' and its transient
    storage (`caller_storage`), so that a call neither allocates nor frees."""
    os.makedirs(folder, exist_ok=True)
    if os.path.exists(os.path.join(folder, COMMANDS)):  # the log is of this run's commands only
        os.remove(os.path.join(folder, COMMANDS))
    tgt = target_model.known(target_name)
    if weights_to_archive:
        text, weights = read_to_archive(source_path, parameters_folder or os.path.join(folder, "parameters"))
        archives = [*archives, weights]
    else:
        text = read_source(source_path)
    given = given or inputs_mod.Options()
    try:
        parameters.check(text, list(archives))
        specialized, sig, arrays = program_inputs(text, function, source_path, given, seed, special_values)
    except (parameters.ParameterError, inputs_mod.InputsError, model_import.ModelImportError) as e:
        raise DriverError(str(e), source_path) from None
    check_buffer_sizes(sig, tgt)
    placed = parameters.place(list(archives), parameters_folder or os.path.join(folder, "parameters"), folder)
    archives = [parameters.Archive(r["scope"], os.path.join(folder, r["file"])) for r in placed]
    f64_io = (target_model.KEEP_F64,) if any(dt == "f64" for _, dt in sig.inputs + sig.outputs) else ()
    flags = f64_io + ((ASYNC_CALLS,) if async_calls else ())
    compiled, text = (text if keep_dynamic else specialized), specialized

    def as_called(program: str) -> str:
        try:
            return caller_storage.with_caller_storage(program, sig.function) if async_calls else program
        except caller_storage.CallerStorageError as e:
            raise DriverError(str(e), source_path) from None

    if baseline:
        ours = configure(as_called(compiled), tgt, folder, flags)
        with shared_context.get() as ctx:
            report = dispatch_report(ir.Module.parse(ours, ctx))
    else:
        program = as_called(apply_program_pipeline(compiled, program_pipeline, target_name))
        chosen, ours, report = form_dispatches(program, tgt, folder, pipeline_text, flags)
        flags += chosen
    vmfb = compile_module(ours, folder, "ldsopt" if not baseline else "baseline", dump=dump)
    ptxas_check.annotate(report, vmfb)  # spills and serialized wgmmas, where ptxas is on PATH
    inputs = [Tensor(shape, dtype, f"input{i}.bin") for i, (shape, dtype) in enumerate(sig.inputs)]
    for t, arr in zip(inputs, arrays):
        t.save(folder, arr)
    outputs = [Tensor(shape, dtype, f"output{i}.bin") for i, (shape, dtype) in enumerate(sig.outputs)]
    ref = reference(text, sig, inputs, folder, reference_engine, archives, seed) if run_reference \
        else Reference([], None, [], [])
    manifest = {"source": os.path.basename(source_path), "target": target_name, "device": tgt.device,
                "function": sig.function, "vmfb": os.path.basename(vmfb), "seed": seed,
                "special_values": special_values, "keep_dynamic": keep_dynamic,
                "pipeline": "iree-default" if baseline else pipeline_text,
                "compile_flags": [*tgt.compile_flags, *flags],
                "program_pipeline": "" if baseline else program_pipeline, "dispatches": report,
                "inputs": [dataclasses.asdict(t) for t in inputs],
                "outputs": [dataclasses.asdict(t) for t in outputs],
                "expected": [dataclasses.asdict(t) for t in ref.expected], "reference": ref.info,
                "sensitivity": [t and dataclasses.asdict(t) for t in ref.sensitivity],
                "as_written": [[dataclasses.asdict(t) for t in ways] for ways in ref.as_written],
                "tolerances": output_tolerances([d for _, d in sig.outputs], ref.info, atol, rtol),
                "parameters": placed}
    output_file.write_json(os.path.join(folder, "manifest.json"), manifest)
    run_record.write_readme(folder)
    return manifest


def program_inputs(text: str, function: str | None, path: str, given: inputs_mod.Options, seed: int = 0,
                   special_values: bool = False) -> tuple[str, Signature, list[np.ndarray]]:
    """The program at its inputs' shapes (`model_import.specialize` where it has dynamic
    dims), its signature and its inputs: `given`'s, the rest drawn (`inputs.random_inputs`);
    InputsError where they would read a table out of bounds (`inputs.check`)."""
    sig = signature(text, function, path, dynamic=True)
    resolved = inputs_mod.resolve(given, sig.inputs)
    dynamic = {i: shape for i, (shape, _) in enumerate(sig.inputs) if -1 in shape}
    if dynamic:
        missing = [i for i in dynamic if i not in resolved.shapes]
        if missing:
            i = missing[0]
            raise inputs_mod.InputsError(
                f"argument {i} has dynamic dims ({'x'.join('?' if d < 0 else str(d) for d in dynamic[i])}): "
                f"give its value (--input {i}=@file.npy) or its shape (--input-shape {i}=...)")
        text = model_import.specialize(text, sig.function, {i: resolved.shapes[i] for i in dynamic})
    sig = signature(text, sig.function, path)
    bounds = inputs_mod.index_bounds(text, sig.function)
    arrays = inputs_mod.random_inputs(sig.inputs, seed, special_values, resolved.ranges, bounds)
    for i, v in resolved.values.items():
        arrays[i] = v
    inputs_mod.check(arrays, bounds, set(resolved.values) | set(resolved.ranges))
    return text, sig, arrays
