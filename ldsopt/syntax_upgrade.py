"""Rewrite early-2025 IREE dispatch syntax into the form IREE 3.13 parses.

Seed dispatches (e.g. those pasted in IREE PR #19596) are bare `hal.executable`
ops written for IREE of early 2025. IREE 3.13 rejects several of their
constructs, and old text cannot be parsed into IR, so the upgrade works on the
text: a table of regex rules, applied in order. Every rule keeps the number of
lines, so diagnostics on the upgraded text point at the original lines.

Left alone, because 3.13 still accepts them: `#iree_gpu.lowering_config<{...}>`
with the legacy keys (`reduction`, `thread_basis`, ...; it is a dictionary),
the trailing `{}` of `#iree_codegen.translation_info`, an old `mma = [...]` list
and a target without `dma_sizes` / `workgroup_memory_bank_count`.
"""

import re

__all__ = ["SyntaxUpgradeError", "needs_upgrade", "upgrade_iree_syntax"]


class SyntaxUpgradeError(Exception):
    """A legacy construct that has no 3.13 spelling; `line` is 1-based."""

    def __init__(self, message: str, line: int):
        super().__init__(f"line {line}: {message}")
        self.message = message
        self.line = line


def _line_of(m: re.Match) -> int:
    return m.string.count("\n", 0, m.start()) + 1


# Legacy `pipeline = <enum>` names that have a 3.13 pipeline attribute; the
# other old names (LLVMGPUWarpReduction, LLVMGPUMatmulTensorCore, SPIRV*, ...)
# name pipelines that 3.13 no longer has.
_PIPELINES = {
    **{f"LLVMGPU{p}": f"#iree_gpu.pipeline<{p}>" for p in (
        "Default", "BaseLowering", "Distribute", "Vectorize",
        "VectorDistribute", "WinogradVectorize", "TileAndFuse")},
    **{f"CPU{p}": f"#iree_cpu.pipeline<{p}>" for p in (
        "Default", "DoubleTilingExpert", "ConvTileAndDecomposeExpert",
        "BufferOpsTileAndVectorize", "DataTiling", "LinalgExtTileAndVectorize")},
    "Mmt4dTilingExpert": "#iree_cpu.pipeline<Mmt4dTilingExpert>",
}


def _pipeline(m: re.Match) -> str:
    name = m.group(2)
    if name not in _PIPELINES:
        raise SyntaxUpgradeError(
            f"lowering pipeline '{name}' has no IREE 3.13 equivalent", _line_of(m))
    return m.group(1) + _PIPELINES[name]


def _unsupported(m: re.Match) -> str:
    raise SyntaxUpgradeError(f"'{m.group(0)}' was removed from IREE", _line_of(m))


# The operand maps of the transposed-operand named matmuls over loops (b?, m, n, k): A, B, C.
_TRANSPOSED_MAPS = {
    ("matmul", "a"): ("d2, d0", "d2, d1", "d0, d1"),
    ("matmul", "b"): ("d0, d2", "d1, d2", "d0, d1"),
    ("batch_matmul", "a"): ("d0, d3, d1", "d0, d3, d2", "d0, d1, d2"),
    ("batch_matmul", "b"): ("d0, d1, d3", "d0, d2, d3", "d0, d1, d2"),
}


def _transposed_matmul(m: re.Match) -> str:
    op, which = m.group(1), m.group(2)
    loops = "d0, d1, d2, d3" if op == "batch_matmul" else "d0, d1, d2"
    maps = ", ".join(f"affine_map<({loops}) -> ({x})>" for x in _TRANSPOSED_MAPS[op, which])
    return f"linalg.{op} indexing_maps = [{maps}]"


# (pattern, replacement) pairs, applied in order with re.sub.
_RULES = [
    # The dispatch tensor type and its load/store/ordinal ops moved from the
    # flow dialect to iree_tensor_ext (IREE, spring 2025).
    (re.compile(r"!flow\.dispatch\.tensor<"), "!iree_tensor_ext.dispatch.tensor<"),
    (re.compile(r"\bflow\.dispatch\.(tensor\.load|tensor\.store|workload\.ordinal)\b"),
     r"iree_tensor_ext.dispatch.\1"),
    # workgroup_count_from_slice moved too, and its operands gained parentheses:
    # `flow...from_slice %a, %b` -> `iree_tensor_ext...from_slice(%a, %b)`.
    (re.compile(r"\bflow\.dispatch\.workgroup_count_from_slice"
                r"[ \t]*((?:%[\w.$-]+(?:[ \t]*,[ \t]*%[\w.$-]+)*)?)"),
     r"iree_tensor_ext.dispatch.workgroup_count_from_slice(\1)"),
    # workgroup_count_from_dag_root was removed (IREE, 2024-2025).
    (re.compile(r"\bflow\.dispatch\.workgroup_count_from_dag_root\b"), _unsupported),
    # The export's workgroup-count region became a `count(...) -> (...)` clause:
    # `layout(...) {\n ^bb0(%d: !hal.device, ...):` -> `layout(...)\n count(%d: !hal.device, ...) -> (index, index, index) {`.
    (re.compile(r"(\bhal\.executable\.export\b[^\n]*?)[ \t]*\{(\s*)\^bb0\(([^)]*!hal\.device[^)]*)\):"),
     r"\1\2count(\3) -> (index, index, index) {"),
    # The GPU target attribute key in executable targets was renamed.
    (re.compile(r"\biree\.gpu\.target\b"), "iree_codegen.target_info"),
    # Pipelines became attributes instead of a bare enum keyword:
    # `pipeline = LLVMGPUVectorDistribute` -> `pipeline = #iree_gpu.pipeline<VectorDistribute>`.
    (re.compile(r"(translation_info<\s*pipeline\s*=\s*)([A-Za-z_]\w*)"), _pipeline),
    # The transposed-operand named matmuls became `linalg.matmul` / `linalg.batch_matmul`
    # with `indexing_maps` (MLIR, spring 2025): `linalg.matmul_transpose_b ins(...)` ->
    # `linalg.matmul indexing_maps = [...] ins(...)`.
    (re.compile(r"\blinalg\.(batch_matmul|matmul)_transpose_(a|b)\b"), _transposed_matmul),
]

_LEGACY = re.compile(
    r"!flow\.dispatch\.tensor<"
    r"|\bflow\.dispatch\.(?:tensor\.load|tensor\.store|workload\.ordinal|workgroup_count_from_\w+)"
    r"|\biree\.gpu\.target\b"
    r"|translation_info<\s*pipeline\s*=\s*[A-Za-z_]"
    r"|\bhal\.executable\.export\b[^\n]*\{\s*\^bb0\("
    r"|\blinalg\.(?:batch_)?matmul_transpose_[ab]\b")


def needs_upgrade(text: str) -> bool:
    """True if `text` contains a construct from before IREE 3.13."""
    return _LEGACY.search(text) is not None


def upgrade_iree_syntax(text: str) -> str:
    """Return `text` rewritten into IREE 3.13 syntax, with the same line count."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text
