import pathlib
import subprocess

import pytest
from iree.compiler import ir

from ldsopt.run.iree_tools import tool
from ldsopt.syntax_upgrade import SyntaxUpgradeError, needs_upgrade, upgrade_iree_syntax

SEEDS = pathlib.Path(__file__).resolve().parents[1] / "seeds"

# seed file -> lowering_config entries the #tuning alias must keep.
SEED_CONFIGS = {
    "seed001_reduce_4096.mlir": [
        "workgroup = [0]", "reduction = [1024]",
        "thread_basis = [[64], [0]]", "subgroup_basis = [[4], [0]]"],
    "seed001_reduce_4x4096.mlir": [
        "workgroup = [4, 0]", "reduction = [0, 256]",
        "thread_basis = [[4, 16], [0, 1]]", "subgroup_basis = [[1, 4], [0, 1]]"],
}


def parse(text):
    ctx = ir.Context()
    with ctx:
        module = ir.Module.parse(text)
        assert module.operation.verify()
    return ctx, module


def find_ops(op, name):
    if op.name == name:
        yield op
    for region in op.regions:
        for block in region:
            for child in block:
                yield from find_ops(child.operation, name)


@pytest.fixture(params=sorted(SEED_CONFIGS))
def seed(request):
    return request.param, (SEEDS / request.param).read_text()


def test_legacy_seed_does_not_parse(seed):
    with ir.Context(), pytest.raises(ir.MLIRError):
        ir.Module.parse(seed[1])


def test_upgraded_seed_parses_and_keeps_tuning(seed):
    name, text = seed
    ctx, module = parse(upgrade_iree_syntax(text))
    with ctx:
        (generic,) = find_ops(module.operation, "linalg.generic")
        info = str(generic.attributes["compilation_info"])
    assert "#iree_gpu.pipeline<VectorDistribute>" in info
    lowering_config = info[info.index("lowering_config"):info.index("translation_info")]
    for entry in SEED_CONFIGS[name]:
        assert entry in lowering_config


def test_upgrade_preserves_lines(seed):
    text = seed[1]
    upgraded = upgrade_iree_syntax(text)
    assert upgraded.count("\n") == text.count("\n")
    assert text.splitlines()[:6] == upgraded.splitlines()[:6]  # the #tuning alias head


def test_iree_opt_accepts_upgraded_seed(seed):
    result = subprocess.run([tool("iree-opt"), "-"], input=upgrade_iree_syntax(seed[1]),
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_needs_upgrade(seed):
    text = seed[1]
    assert needs_upgrade(text)
    upgraded = upgrade_iree_syntax(text)
    assert not needs_upgrade(upgraded)
    ctx, module = parse(upgraded)
    with ctx:
        printed = str(module)  # 3.13's own printing
    assert not needs_upgrade(printed)
    assert upgrade_iree_syntax(printed) == printed


def test_count_region_operands_and_ordinal():
    text = (
        "hal.executable.export public @f ordinal(0) layout(#l) {\n"
        "^bb0(%arg0: !hal.device, %arg1: index):\n"
        "  %x, %y, %z = flow.dispatch.workgroup_count_from_slice %arg1\n"
        "%1 = flow.dispatch.workload.ordinal %0, 0 : index\n")
    assert upgrade_iree_syntax(text) == (
        "hal.executable.export public @f ordinal(0) layout(#l)\n"
        "count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {\n"
        "  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)\n"
        "%1 = iree_tensor_ext.dispatch.workload.ordinal %0, 0 : index\n")


@pytest.mark.parametrize("legacy, new", [
    ("LLVMGPUTileAndFuse", "#iree_gpu.pipeline<TileAndFuse>"),
    ("LLVMGPUDefault", "#iree_gpu.pipeline<Default>"),
    ("LLVMGPUBaseLowering", "#iree_gpu.pipeline<BaseLowering>"),
    ("LLVMGPUDistribute", "#iree_gpu.pipeline<Distribute>"),
    ("CPUDoubleTilingExpert", "#iree_cpu.pipeline<DoubleTilingExpert>"),
])
def test_pipeline_names_parse(legacy, new):
    text = (f"#t = #iree_codegen.translation_info<pipeline = {legacy} workgroup_size = [64, 1, 1]>\n"
            "func.func @f() attributes {translation_info = #t} { return }\n")
    upgraded = upgrade_iree_syntax(text)
    assert new in upgraded
    parse(upgraded)


@pytest.mark.parametrize("construct", [
    "pipeline = LLVMGPUWarpReduction",
    "%x, %y, %z = flow.dispatch.workgroup_count_from_dag_root",
])
def test_unrewritable_construct_raises_with_line(seed, construct):
    lines = seed[1].splitlines()
    if construct.startswith("pipeline"):
        lines[6] = lines[6].replace("pipeline = LLVMGPUVectorDistribute", construct)
        expected_line = 7
    else:
        lines[15] = "        " + construct
        expected_line = 16
    with pytest.raises(SyntaxUpgradeError) as err:
        upgrade_iree_syntax("\n".join(lines))
    assert err.value.line == expected_line
    assert construct.split()[-1] in err.value.message


@pytest.mark.parametrize("op, a, b, c, maps", [
    ("matmul_transpose_b", "4x8", "6x8", "4x6", ("(d0, d2)", "(d1, d2)", "(d0, d1)")),
    ("matmul_transpose_a", "8x4", "8x6", "4x6", ("(d2, d0)", "(d2, d1)", "(d0, d1)")),
    ("batch_matmul_transpose_b", "2x4x8", "2x6x8", "2x4x6", ("(d0, d1, d3)", "(d0, d2, d3)", "(d0, d1, d2)")),
    ("batch_matmul_transpose_a", "2x8x4", "2x8x6", "2x4x6", ("(d0, d3, d1)", "(d0, d3, d2)", "(d0, d1, d2)")),
])
def test_transposed_named_matmuls_become_maps(op, a, b, c, maps):
    """3.13's linalg has no `matmul_transpose_b` & co. (they do not parse): they become the
    named matmul with the operand maps that say the same, on the same line."""
    text = (f"func.func @f(%a: tensor<{a}xf32>, %b: tensor<{b}xf32>, %c: tensor<{c}xf32>) -> tensor<{c}xf32> {{\n"
            f"  %r = linalg.{op} ins(%a, %b : tensor<{a}xf32>, tensor<{b}xf32>) outs(%c : tensor<{c}xf32>) "
            f"-> tensor<{c}xf32>\n"
            f"  return %r : tensor<{c}xf32>\n}}\n")
    with pytest.raises(ir.MLIRError, match="matmul_transpose"):
        parse(text)
    assert needs_upgrade(text)
    upgraded = upgrade_iree_syntax(text)
    assert upgraded.count("\n") == text.count("\n") and f"linalg.{op}" not in upgraded
    ctx, module = parse(upgraded)
    with ctx:
        (named,) = [o for o in module.body.operations[0].regions[0].blocks[0].operations
                    if o.operation.name.startswith("linalg.")]
        got = [str(ir.AffineMapAttr(m).value) for m in named.attributes["indexing_maps"]]
    loops = "(d0, d1, d2, d3)" if op.startswith("batch") else "(d0, d1, d2)"
    assert got == [f"{loops} -> {m}" for m in maps]
    assert named.operation.name == "linalg." + op.rsplit("_transpose", 1)[0]
