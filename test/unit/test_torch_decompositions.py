"""ldsopt/run/torch_decompositions.py: each rewrite gives the op's values, dtype and shape, and an
export under it holds none of the ops IREE 3.13's torch import does not lower."""

import re

import pytest

torch = pytest.importorskip("torch", reason="the torch extra is not installed (pip install -e '.[torch]')")
pytest.importorskip("iree.turbine", reason="the torch extra is not installed")

from ldsopt.run import torch_decompositions as td  # noqa: E402

aten = torch.ops.aten


def same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert torch.equal(got, want) if not want.is_floating_point() else torch.allclose(got, want, rtol=1e-5, atol=1e-5)


def rand(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("n,dim,ends", [(1, -1, False), (2, 0, False), (1, 1, True), (3, 1, True)])
def test_diff(n, dim, ends):
    x = torch.randint(-50, 50, (5, 7), generator=torch.Generator().manual_seed(n))
    kw = {"prepend": x.narrow(dim, 0, 2), "append": x.narrow(dim, 1, 1)} if ends else {}
    same(td._diff(x, n, dim, **kw), torch.diff(x, n, dim, **kw))


@pytest.mark.parametrize("dtype", [None, torch.bool, torch.int64, torch.float16])
def test_new_ones(dtype):
    x = rand(3, 2)
    for size in [(), (4,), (2, 3)]:
        same(td._new_ones(x, size, dtype=dtype), x.new_ones(size, dtype=dtype))


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_weight_norm(dim):
    v = rand(6, 4, 5)
    g_shape = [1] * 3 if dim == -1 else [v.shape[d] if d == dim else 1 for d in range(3)]
    g = rand(*g_shape, seed=1).abs() + 0.5
    same(td._weight_norm(v, g, dim), aten._weight_norm(v, g, dim))


@pytest.mark.parametrize("case", ["experts", "range", "data_range", "one_value", "nan"])
def test_histc(case):
    x, bins, lo, hi = {
        "experts": (torch.randint(0, 4, (18,), generator=torch.Generator().manual_seed(0)).float(), 4, 0, 3),
        "range": (rand(1000), 7, -1.5, 2.0),
        "data_range": (rand(50, seed=1), 5, 0, 0),
        "one_value": (torch.full((5,), 2.0), 3, 0, 0),
        "nan": (torch.tensor([0.0, 1.0, 2.0, 3.0, float("nan"), -1.0, 4.0]), 3, 0, 3)}[case]
    same(td._histc(x, bins, lo, hi), torch.histc(x, bins, lo, hi))


def test_aliases():
    a, b = rand(4, 3) > 0, rand(4, 3, seed=1) > 0
    decomposed = td.table()
    same(decomposed[aten.__and__.Tensor](a, b), a & b)
    same(decomposed[aten.__or__.Tensor](a, b), a | b)
    x, y = rand(4, 3), rand(4, 3, seed=1)
    same(decomposed[aten.multiply.Tensor](x, y), torch.multiply(x, y))


@pytest.mark.parametrize("align", [False, True])
def test_pytorchs_bicubic(align):
    from torch._decomp import get_decompositions
    op = aten.upsample_bicubic2d.vec
    assert td.pytorchs() == [op]
    x = rand(1, 3, 4, 6)
    same(get_decompositions(td.pytorchs())[op](x, (7, 5), align, None), op(x, (7, 5), align, None))


class Masks(torch.nn.Module):
    """What transformers' masks do, the encoders' weight norm and bicubic resize, a histogram."""

    def forward(self, ids, x, w):
        packed = torch.diff(ids, dim=-1) != 1
        neutral = ids.new_ones((), dtype=torch.bool)
        mask = (neutral & (ids[:, None, :] <= ids[:, :, None])) | packed[:, None, :1]
        normed = torch._weight_norm(w, w.new_ones(w.shape[0], 1), 0)
        up = torch.nn.functional.interpolate(x, size=(5, 6), mode="bicubic", align_corners=False)
        return mask, torch.multiply(normed, 2.0), up, torch.histc(x, 4, -1.0, 1.0)


def test_export_holds_no_op_iree_does_not_lower():
    from iree.turbine import aot
    args = (torch.arange(7)[None], rand(1, 2, 3, 4), rand(3, 5))
    with td.applied():
        text = str(aot.export(Masks(), args=args).mlir_module)
    assert "torch.operator" not in text, re.findall(r'torch\.operator "[^"]+"', text)
    for op in ["diff", "new_ones", "__and__", "__or__", "multiply", "_weight_norm", "upsample_bicubic2d", "histc"]:
        assert f"torch.aten.{op}" not in text, op
    assert "dense<true> : tensor<i1>" not in text
    # and without the rewrites, the export holds them (so this test sees what it removes)
    plain = str(aot.export(Masks(), args=args).mlir_module)
    assert 'torch.operator "torch.aten.diff"' in plain and "torch.aten.__and__" in plain


def test_hint_names_the_remedy_for_the_ops_rewritten_only():
    diff = "loc(\"-\":9:11): error: failed to legalize operation 'torch.operator' ... torch.aten.diff"
    assert "torch_decompositions.applied()" in td.hint(diff)
    assert td.hint("error: failed to legalize operation 'torch.aten.unknown_op'") is None
    moe = ("error: failed to legalize operation 'torch.operator' ... "
           "<{name = \"torch.transformers.grouped_mm_fallback\"}>")
    assert 'experts_implementation="batched_mm"' in td.hint(moe)
