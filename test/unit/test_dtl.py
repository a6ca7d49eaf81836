"""ldsopt.dtl: the direct-to-LDS thread -> element map (generalized NLC=1 with magic division),
the M0 rule of block padding, the perpDim permutation and the rotation, the bank-model choice,
and the bank-conflict report."""

import dataclasses

import pytest

from ldsopt.layout import dtl
from ldsopt.layout.banks import BankModel
from ldsopt.layout.maps import BlockPadded, PerpPermutation
from ldsopt.layout.magic_div import check_exact

GFX942 = BankModel.gfx942()

# Non-power-of-2 macro tiles along the coalesced dim (hipBLASLt's GNLC case: M or N
# contiguous, K rows): f16 with 32 K rows, f32 with 16, 256 threads in waves of 64.
TILES = [(rows, mt, eb) for mt in (96, 160, 192, 320) for rows, eb in ((32, 2), (16, 4))]


def _geometry(rows, cols, eb):
    return dtl.Geometry(rows, cols, eb, threads=256, wave_size=64)


def _specs(g):
    """Every layout of each kind the pass may pick for g (all when few)."""
    return [dtl.DtlSpec()] + dtl.candidates(g, read_elems=1)


@pytest.mark.parametrize("rows, cols, eb", TILES)
def test_thread_map_is_a_bijection_onto_the_tile(rows, cols, eb):
    g = _geometry(rows, cols, eb)
    assert g.lanes_per_row & (g.lanes_per_row - 1)  # a non-power-of-2 number of threads per row
    starts = {(r, c) for r in range(rows) for c in range(0, cols, g.vec)}
    for spec in _specs(g):
        fetched = dtl.thread_elements(g, spec)
        assert len(fetched) == g.chunks and set(fetched) == starts, spec.text
        dests = [g.dest(c, spec) for c in range(g.chunks)]
        assert len(set(dests)) == g.chunks and max(dests) + g.vec <= g.alloc(spec), spec.text
        amap = spec.address_map(cols)
        for c in range(0, g.chunks, 7):  # the fragment-read map finds what chunk c wrote
            r, col = fetched[c]
            assert amap(r * cols + col) == dests[c], (spec.text, c)


@pytest.mark.parametrize("rows, cols, eb", TILES)
def test_magic_constants_exact_over_the_proven_range(rows, cols, eb):
    """Every division the emitter does, exhaustively over its dividends, and the chunk split
    by the threads along a non-power-of-2 row is a magic multiply-shift."""
    g = _geometry(rows, cols, eb)
    for spec in _specs(g):
        ranges = dtl.division_ranges(g, spec)
        for name, d in dtl.divisions(g, spec).items():
            bound = ranges[name][1]
            assert d.proven_range() >= bound and check_exact(d.divisor, d.magic, d.shift, bound), (name, d)
    split = dtl.divisions(g, dtl.DtlSpec())["lanes_per_row"]
    assert not split.is_pow2 and split.divisor == cols // g.vec
    assert all(split.apply(c) == divmod(c, split.divisor) for c in range(g.chunks))


def test_divider_refuses_a_range_it_cannot_prove():
    with pytest.raises(ValueError):
        dtl.divider(3, 1 << 31)  # the product would leave a signed 32-bit index


def test_block_padding_rounds_to_whole_wave_loads_on_gfx942():
    """The M0 rule: 64 lanes x 4 B = 256 B (hipBLASLt issue #3078: it came out 0)."""
    assert BlockPadded(block_bytes=200, pad_bytes=16, elem_bytes=2).block_elems * 2 == 256
    assert BlockPadded(block_bytes=300, pad_bytes=16, elem_bytes=4).block_elems * 4 == 512
    g = _geometry(64, 32, 2)
    for spec in dtl.candidates(g, read_elems=4):
        if spec.block_pad:
            assert spec.block_pad[0] * 2 % 256 == 0, spec.text


@pytest.mark.parametrize("block, stride", [(4, 2), (8, 2), (8, 4), (16, 8), (12, 4), (12, 3)])
def test_permutation_forward_inverse(block, stride):
    p = PerpPermutation(block, stride)
    rows = range(3 * block)
    assert sorted(p.forward(r) for r in rows) == list(rows)
    assert all(p.backward(p.forward(r)) == r and p.forward(p.backward(r)) == r for r in rows)
    spec = dtl.DtlSpec(perm=(block, stride))
    amap = spec.address_map(8)
    assert all(amap.inverse(amap(i)) == i for i in range(3 * block * 8))


def test_staging_layout_records_the_dtl_fields():
    from iree.compiler import ir

    from ldsopt.layout.tile_layout import Direct, LdsDtl, StorageOrder, TileLayout

    with ir.Context():
        plain = TileLayout.planned("A", ("m", "k"), (64, 32), 2, 256, "MFMA_F32_16x16x16_F16", 4)
        assert "lds_layout" not in str(plain.attr())  # unchanged for every other pass
        s = dataclasses.replace(plain, thread_map=StorageOrder((64, 32), 2), copy=Direct(),
                                lds=LdsDtl.parse("perm<4,2>+block_pad<128,4>", 64, 32))
        assert TileLayout.from_attr(s.attr()) == s
        assert s.lds_shape == (2, 64 * 32 + 15 * 4)  # a pad after each 256 B block but the last


def test_spec_round_trips_through_its_text():
    for text in ("none", "block_pad<128,4>", "perm<16,8>+block_pad<512,16>", "rotation<2,8,4>"):
        assert dtl.DtlSpec.parse(text).text == text
    with pytest.raises(ValueError):
        dtl.DtlSpec.parse("swizzle<1,2>")


def test_choice_removes_mfma_column_conflicts():
    """K-contiguous f16 A of 64x32 under MFMA 16x16x16 (lane l reads 4 K at row l % 16, col
    4 * (l // 16)): rows 64 B apart collide without a layout; the pick has no conflicts."""
    g = _geometry(64, 32, 2)
    reads = [lambda lane: (lane % 16, 4 * (lane // 16), 4)]
    spec, best = dtl.choose(g, reads, GFX942, read_elems=4)
    assert best["none"][1].read > 0 and best["none"][1].write == 0
    assert dtl.cost(g, spec, reads, GFX942).total == 0
    assert min(c.total for _, c in best.values()) == 0


def test_bank_report_is_produced():
    from ldsopt.tools import dtl_report

    text = (dtl_report.PROGRAMS / "nn_f16_96x160x64.mlir").read_text()
    rows = dtl_report.rows("nn_f16_96x160x64", text)
    assert [r.operand for r in rows] == ["A", "B"]
    cuda = dtl_report.rows("nn_f16_96x160x64", text, "cuda")  # 16-byte cp.async lanes: chunks of 8 f16
    report = dtl_report.markdown(rows, cuda)
    assert "| case | operand | none (write / read) | pad (write / read) | rotation (write / read) | perm" in report
    assert all(set(r.best) == set(dtl.KINDS) for r in rows)
    assert "nn_f16_96x160x64" in report and rows[0].pick in report
    assert cuda[0].pick == "rotation<2,4,8>" and "## CUDA" in report
