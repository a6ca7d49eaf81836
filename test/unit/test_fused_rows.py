"""Unit tests of ldsopt.fused_rows: how a dispatch of several generics is read as rows (kinds,
passes, operands), and the dispatches it leaves to IREE."""

import pytest
from iree.compiler import ir

from ldsopt.codegen import gather
from ldsopt.codegen.dispatch import analyze_graph, dispatch_funcs
from ldsopt.reduction.fused_rows import MAP, REDUCE, ROW_MAP, match_rows

HEAD = """
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">,
  #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>,
  #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#r1 = affine_map<(d0) -> (d0)>
func.func @f() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %n = arith.constant 64.0 : f32
  %b0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x64xf32, #hal.descriptor_type<storage_buffer>>
  %b1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %b0 : memref<8x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x64xf32>
  %g = iree_codegen.load_from_buffer %b1 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
"""

MAX = """
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%fm : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
"""
SUM_EXP = """
  %s = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<8x64xf32>, tensor<8xf32>) outs(%fz : tensor<8xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
"""


def _store(value, type_, binding):
    mtype = type_.replace("tensor", "memref").replace(">", ", #hal.descriptor_type<storage_buffer>>")
    return (f"  %out{binding} = hal.interface.binding.subspan layout(#layout) binding({binding}) alignment(64) "
            f"offset(%c0) flags(Indirect) : {mtype}\n"
            f"  iree_codegen.store_to_buffer {value}, %out{binding} : {type_} into {mtype}\n")


def _rows(body: str, stores: str):
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(HEAD + body + stores + "  return\n}\n")
        (func,) = dispatch_funcs(module.operation)
        graph = analyze_graph(func, ("linalg.generic",))
        rows = match_rows(graph) if graph else graph
        if not rows:
            return rows.reason  # why not (remarks.Unmatched)
        # What the tests look at, read while the context lives.
        return {"shape": rows.shape, "k": rows.k, "passes": rows.passes,
                "nodes": [(n.kind, n.level, [o.dims for o in n.operands]) for n in rows.nodes],
                "loops": [n.loops for n in rows.nodes],
                "combines": [[c.name for c in n.combines] for n in rows.nodes],
                "chunk_operands": [o.dims for o in rows.chunk_operands()],
                "staged_operands": [o.dims for o in rows.staged_operands()],
                "full_stores": len(rows.full_stores), "row_stores": len(rows.row_stores),
                "strided": rows.strided, "layouts": list(rows.layouts.values())}


def test_softmax_is_two_passes_and_a_consumer():
    consumer = """
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s, %g : tensor<8x64xf32>, tensor<8xf32>, tensor<8xf32>, tensor<64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %gg: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %q = arith.divf %ex, %ss : f32
    %y = arith.mulf %q, %gg : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
"""
    rows = _rows(MAX + SUM_EXP + consumer, _store("%r", "tensor<8x64xf32>", 2))
    assert rows["shape"] == (8, 64) and rows["k"] == 1 and rows["passes"] == 2
    assert rows["nodes"] == [(REDUCE, 0, [(0, 1)]), (REDUCE, 1, [(0, 1), (0,)]),
                             (MAP, 2, [(0, 1), (0,), (0,), (1,)])]
    assert rows["combines"][:2] == [["arith.maximumf"], ["arith.addf"]]
    assert rows["chunk_operands"] == [(0, 1), (1,)]  # x and the column gamma, each once
    assert rows["staged_operands"] == [(0, 1)]  # a row in LDS holds x, not gamma (the same for every row)
    assert rows["full_stores"] == 1 and rows["row_stores"] == 0


def test_row_map_epilogue_and_two_results():
    both = """
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%fz, %fm : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %s: f32, %mm: f32):
    %y = arith.addf %a, %s : f32
    %z = arith.maxnumf %a, %mm : f32
    linalg.yield %y, %z : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %mean = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%r#0 : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.divf %a, %n : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
"""
    rows = _rows(both, _store("%mean", "tensor<8xf32>", 2) + _store("%r#1", "tensor<8xf32>", 3))
    assert rows["passes"] == 1
    assert rows["nodes"] == [(REDUCE, 0, [(0, 1)]), (ROW_MAP, 1, [(0,)])]
    assert rows["combines"][0] == ["arith.addf", "arith.maxnumf"]
    assert rows["row_stores"] == 2


def test_positions_in_bodies():
    """A causal mask from linalg.index in a reduction and a map, and a row map of the row's
    position: read as rows, each index along its loop's dim of the row space."""
    mask = """
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %later = arith.cmpi ugt, %j, %i : index
    %s = arith.select %later, %ninf, %a : f32
"""
    body = f"""
  %m = linalg.generic {{indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%x : tensor<8x64xf32>) outs(%fm : tensor<8xf32>) {{
  ^bb0(%a: f32, %o: f32):{mask}    %y = arith.maximumf %s, %o : f32
    linalg.yield %y : f32
  }} -> tensor<8xf32>
  %r = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %m : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {{
  ^bb0(%a: f32, %mm: f32, %o: f32):{mask}    %y = arith.subf %s, %mm : f32
    linalg.yield %y : f32
  }} -> tensor<8x64xf32>
  %p = linalg.generic {{indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}}
      ins(%m : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %y = arith.addf %a, %f : f32
    linalg.yield %y : f32
  }} -> tensor<8xf32>
"""
    rows = _rows(body, _store("%r", "tensor<8x64xf32>", 2) + _store("%p", "tensor<8xf32>", 3))
    assert rows["nodes"] == [(REDUCE, 0, [(0, 1)]), (MAP, 1, [(0, 1), (0,)]), (ROW_MAP, 1, [(0,)])]
    assert rows["combines"][0] == ["arith.maximumf"]
    assert rows["loops"] == [(0, 1), (0, 1), (0,)]


@pytest.mark.parametrize("body, why", [
    ("""
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x64xf32>, tensor<8xf32>) outs(%e2t, %e2 : tensor<64x8xf32>, tensor<8x64xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32, %o2: f32):
    %y = arith.subf %a, %mm : f32
    linalg.yield %y, %y : f32, f32
  } -> (tensor<64x8xf32>, tensor<8x64xf32>)
""", "an op writes its result through a permutation or broadcast"),
    ("""
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%m : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
""", "a reduction whose combiner, initial value or type is not one the kernel combines"),
    ("""
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%fz : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.cmpf ogt, %a, %o : f32
    %y = arith.select %c, %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
""", "a reduction whose combiner, initial value or type is not one the kernel combines"),
])
def test_left_to_iree(body, why):
    """A consumer writing its results in two dim orders; a reduction starting from another
    one's result; a select over the output (argmax-like but not the pattern): each left, with
    why."""
    body = "  %e2t = tensor.empty() : tensor<64x8xf32>\n" + MAX + body
    stores = _store("%r#0", "tensor<64x8xf32>", 2) + _store("%r#1", "tensor<8x64xf32>", 3) if "%r:2" in body \
        else _store("%r", "tensor<8xf32>", 2)
    assert _rows(body, stores) == why


def test_rows_read_along_memory_and_written_transposed_are_strided():
    """x read along the row, the result written transposed (ConvNeXt's permute back to NCHW
    after its LayerNorm): strided rows, the store through (1, 0)."""
    body = "  %e2t = tensor.empty() : tensor<64x8xf32>\n" + MAX + """
  %r = linalg.generic {indexing_maps = [#id, #row, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x64xf32>, tensor<8xf32>) outs(%e2t : tensor<64x8xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %y = arith.subf %a, %mm : f32
    linalg.yield %y : f32
  } -> tensor<64x8xf32>
"""
    rows = _rows(body, _store("%r", "tensor<64x8xf32>", 2))
    assert rows["layouts"] == [(1, 0)] and rows["strided"] and rows["chunk_operands"] == [(0, 1)]


# Softmax over the leading dim of x [8, 64], as IREE forms it: the reductions' loops (column,
# row) read x transposed, the consumer's (row, column) read it in order.
COLUMN_SOFTMAX = """
  %e64 = tensor.empty() : tensor<64xf32>
  %f64 = linalg.fill ins(%ninf : f32) outs(%e64 : tensor<64xf32>) -> tensor<64xf32>
  %cast = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %a : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  %m = linalg.generic {indexing_maps = [#tr, #row], iterator_types = ["parallel", "reduction"]}
      ins(%cast : tensor<8x64xf32>) outs(%f64 : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cast, %m : tensor<8x64xf32>, tensor<64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %y = arith.subf %a, %mm : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
"""


def test_a_reduction_over_an_outer_dim_renames_the_maps_loops():
    """The map before the reduction and the one after run over S = (column, row) in another
    order: their loops are renamed to S's, x is read transposed, and the rows are strided."""
    rows = _rows(COLUMN_SOFTMAX, _store("%r", "tensor<8x64xf32>", 2))
    assert rows["shape"] == (64, 8) and rows["k"] == 1 and rows["strided"]
    assert rows["nodes"] == [(MAP, 0, [(1, 0)]), (REDUCE, 0, [(1, 0)]), (MAP, 1, [(1, 0), (0,)])]
    assert rows["loops"] == [(1, 0), (0, 1), (1, 0)] and rows["layouts"] == [(1, 0)]


def test_a_reduction_over_a_leading_dim_is_strided_rows():
    """Its loops (reduced, parallel) are renamed: S = (column, row), x read transposed."""
    body = """
  %e64 = tensor.empty() : tensor<64xf32>
  %f64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<64xf32>) -> tensor<64xf32>
  %cs = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<8x64xf32>) outs(%f64 : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
"""
    rows = _rows(body, _store("%cs", "tensor<64xf32>", 2))
    assert rows["shape"] == (64, 8) and rows["k"] == 1 and rows["strided"]
    assert rows["nodes"] == [(REDUCE, 0, [(1, 0)])] and rows["loops"] == [(1, 0)] and rows["row_stores"] == 1


ARGMAX = """
  %ei = tensor.empty() : tensor<8xi64>
  %c0i = arith.constant 0 : i64
  %fi = linalg.fill ins(%c0i : i64) outs(%ei : tensor<8xi64>) -> tensor<8xi64>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%fm, %fi : tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%a: f32, %v: f32, %i: i64):
    %idx = linalg.index 1 : index
    %idx64 = arith.index_cast %idx : index to i64
    %m = arith.maximumf %a, %v : f32
    %gt = arith.cmpf PRED, %a, %v : f32
    %ni = arith.select %gt, %idx64, %i : i64
    linalg.yield %m, %ni : f32, i64
  } -> (tensor<8xf32>, tensor<8xi64>)
"""


def test_argmax_is_three_passes():
    stores = _store("%r#0", "tensor<8xf32>", 2) + _store("%r#1", "tensor<8xi64>", 3)
    rows = _rows(ARGMAX.replace("PRED", "ogt"), stores)
    assert rows["passes"] == 3 and rows["nodes"] == [("arg_best", 0, [(0, 1)])] and rows["row_stores"] == 2
    # oge would take the last index on ties: left alone, with why.
    assert _rows(ARGMAX.replace("PRED", "oge"), stores) == \
        "an arg-best reduction whose ties go to the last index (>= or <=); takes the first, as torch and numpy do"


TYPES = """
  %bi = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8xi64, #hal.descriptor_type<storage_buffer>>
  %bt = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<5xi64, #hal.descriptor_type<storage_buffer>>
  %bk = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x64xf32, #hal.descriptor_type<storage_buffer>>
  %ids = iree_codegen.load_from_buffer %bi : memref<8xi64, #hal.descriptor_type<storage_buffer>> -> tensor<8xi64>
  %types = iree_codegen.load_from_buffer %bt : memref<5xi64, #hal.descriptor_type<storage_buffer>> -> tensor<5xi64>
  %kinds = iree_codegen.load_from_buffer %bk : memref<3x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ids : tensor<8x64xf32>, tensor<8xi64>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %i: i64, %o: f32):
    %col = linalg.index 1 : index
    %ii = arith.index_cast %i : i64 to index
    %t = tensor.extract %types[%ii] : tensor<5xi64>
    %ti = arith.index_cast %t : i64 to index
    %k = tensor.extract %kinds[%ti, %col] : tensor<3x64xf32>
    USE
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<8x64xf32>) outs(%fz : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
"""


def test_a_table_read_at_an_integer_read_once_per_row():
    """BERT's token type: read from its table at the row's integer, once per row, it indexes the
    type embeddings read along the row; an address op, not computed per lane. Also computed
    with, it is not one: left to IREE."""
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(HEAD + TYPES.replace("USE", "%y = arith.addf %a, %k : f32") +
                                 _store("%s", "tensor<8xf32>", 2) + "  return\n}\n")
        (func,) = dispatch_funcs(module.operation)
        rows = match_rows(analyze_graph(func, ("linalg.generic",)))
        (node,) = rows.gathering()
        (row_read,) = node.reads.rows
        (per_row,) = [x for x in node.reads.uniform if x.name == "tensor.extract"]
        kind, col = row_read.operands[1:]
        assert str(ir.RankedTensorType(row_read.operands[0].type)) == "tensor<3x64xf32>"
        assert kind.owner.operands[0] == per_row.results[0] and ir.IntegerAttr(col.owner.attributes["dim"]).value == 1
        ids = per_row.operands[1].owner.operands[0]
        assert node.operands[ir.BlockArgument(ids).arg_number].dims == (0,)
        assert sorted(op.name for op in gather.addresses(node.reads, node.op)) == \
            ["arith.index_cast", "arith.index_cast", "linalg.index", "tensor.extract"]
    computed = TYPES.replace("USE", "%tf = arith.sitofp %t : i64 to f32\n    %ak = arith.addf %a, %k : f32\n"
                             "    %y = arith.addf %ak, %tf : f32")
    assert _rows(computed, _store("%s", "tensor<8xf32>", 2)).startswith("a body op other than arith, math")
