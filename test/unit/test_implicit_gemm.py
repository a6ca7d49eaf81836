"""ldsopt/matmul/implicit_gemm.py: a convolution's generic read as a matmul. The view's index
expressions, evaluated on ints, gather each operand's matrix exactly as an im2col built by
numpy does, at awkward shapes (prime channels and sizes, stride 2, dilation 2, the image
given padded); the forms it does not take are refused with their reason."""

import itertools

import numpy as np
import pytest
from iree.compiler import ir

from ldsopt.layout import index_expr
from ldsopt.matmul.implicit_gemm import gemm_view


@pytest.fixture(autouse=True)
def context():
    with ir.Context(), ir.Location.unknown():
        yield


def _generic(maps: list[str], shapes: list[tuple[int, ...]], iterators: list[str]):
    """The root of a function holding one multiply-add generic of `maps` over f32 tensors."""
    t = ["tensor<" + "x".join(map(str, s)) + "xf32>" for s in shapes]
    its = ", ".join(f'"{i}"' for i in iterators)
    text = f"""
func.func @f(%a: {t[0]}, %b: {t[1]}, %c: {t[2]}) -> {t[2]} {{
  %r = linalg.generic {{indexing_maps = [{', '.join(f'affine_map<{m}>' for m in maps)}], iterator_types = [{its}]}}
      ins(%a, %b : {t[0]}, {t[1]}) outs(%c : {t[2]}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }} -> {t[2]}
  return %r : {t[2]}
}}"""
    module = ir.Module.parse(text)
    func = module.body.operations[0]
    root = [op for op in func.regions[0].blocks[0].operations if op.operation.name == "linalg.generic"][0]
    return module, root.operation


def _nhwc(n, h, w, c, f, k, stride, dilation, filters):
    """An NHWC convolution as IREE generalizes it: loops (n, oh, ow, f, kh, kw, c)."""
    oh, ow = (h - dilation * (k - 1) - 1) // stride + 1, (w - dilation * (k - 1) - 1) // stride + 1
    s = lambda x: f" * {x}" if x != 1 else ""  # noqa: E731
    image = f"(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1{s(stride)} + d4{s(dilation)}, d2{s(stride)} + d5{s(dilation)}, d6)"
    filt = {"fhwc": ("(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)", (f, k, k, c)),
            "hwcf": ("(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)", (k, k, c, f))}[filters]
    out = "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)"
    return _generic([image, filt[0], out], [(n, h, w, c), filt[1], (n, oh, ow, f)], ["parallel"] * 4 + ["reduction"] * 3)


def _evaluate(exprs, **env):
    """`exprs` of variables x0, x1 (or m, n) at every point of `env`'s arrays."""
    return index_expr.Function(list(env), exprs)(*env.values())


@pytest.mark.parametrize("n,h,w,c,f,k,stride,dilation,filters", [
    (2, 13, 15, 5, 7, 3, 1, 1, "fhwc"),    # primes, the image given padded
    (2, 17, 19, 16, 37, 3, 2, 1, "fhwc"),  # stride 2
    (1, 29, 31, 3, 13, 7, 2, 1, "fhwc"),   # the stem: 7x7 stride 2, three channels
    (2, 9, 11, 8, 24, 3, 1, 1, "hwcf"),    # filters K x N
    (1, 15, 14, 12, 20, 3, 1, 2, "fhwc"),  # dilation 2
])
def test_view_gathers_the_im2col(n, h, w, c, f, k, stride, dilation, filters):
    module, root = _nhwc(n, h, w, c, f, k, stride, dilation, filters)
    view = gemm_view(root)
    assert view, view
    oh, ow = (h - dilation * (k - 1) - 1) // stride + 1, (w - dilation * (k - 1) - 1) // stride + 1
    assert (view.size("m"), view.size("n"), view.size("k")) == (n * oh * ow, f, k * k * c)
    assert view.dims == {"A": ("m", "k"), "B": ("n", "k") if filters == "fhwc" else ("k", "n")}
    # A: a window row's channels, contiguous over the window's columns where it is not dilated.
    assert view.runs("A") == c * (k if dilation == 1 else 1)
    assert view.runs("B") == (k * k * c if filters == "fhwc" else f)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, h, w, c))
    wt = rng.standard_normal((f, k, k, c))
    # numpy's im2col: rows (n, oh, ow), columns (kh, kw, c), and the filters as [F, K].
    cols = np.empty((n, oh, ow, k, k, c))
    for i, j in itertools.product(range(k), range(k)):
        cols[:, :, :, i, j, :] = x[:, i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                                   j * dilation:j * dilation + stride * (ow - 1) + 1:stride, :]
    cols = cols.reshape(n * oh * ow, k * k * c)
    m_idx, k_idx = np.meshgrid(np.arange(view.size("m")), np.arange(view.size("k")), indexing="ij")
    a = _evaluate(view.indices("A", [index_expr.var("x0"), index_expr.var("x1")]), x0=m_idx, x1=k_idx)
    np.testing.assert_array_equal(x[tuple(a)], cols)
    stored = wt if filters == "fhwc" else wt.transpose(1, 2, 3, 0)
    f_idx, k2 = np.meshgrid(np.arange(f), np.arange(k * k * c), indexing="ij")
    b_matrix = [f_idx, k2] if filters == "fhwc" else [k2, f_idx]
    b = _evaluate(view.indices("B", [index_expr.var("x0"), index_expr.var("x1")]), x0=b_matrix[0], x1=b_matrix[1])
    np.testing.assert_array_equal(stored[tuple(b)], wt.reshape(f, k * k * c))
    # The output is [M, N] row-major: (m, n) at its own dims.
    mm, nn = np.meshgrid(np.arange(view.size("m")), np.arange(f), indexing="ij")
    out = _evaluate(view.output_loops(index_expr.var("m"), index_expr.var("n")), m=mm, n=nn)
    np.testing.assert_array_equal(np.ravel_multi_index(tuple(out), (n, oh, ow, f)), mm * f + nn)
    assert view.output_groups() == ["m", "m", "m", "n"]


@pytest.mark.parametrize("stride", [1, 2])
def test_nchw_is_batched_with_the_image_as_b(stride):
    """NCHW, as IREE's ONNX import gives it: the batch leads the output, then the filters (M),
    then the image's rows and columns (N); the image is B [K, N] per batch, contiguous along a
    row of the output where the stride is 1 (else gathered one element at a time along K's
    window columns), the filters A [F, C*KH*KW], contiguous along all of K."""
    n, c, f, k, h, w = 2, 3, 13, 3, 13, 11
    oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
    s = f" * {stride}" if stride > 1 else ""
    module, root = _generic([f"(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2{s} + d5, d3{s} + d6)",
                             "(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)",
                             "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)"],
                            [(n, c, h, w), (f, c, k, k), (n, f, oh, ow)], ["parallel"] * 4 + ["reduction"] * 3)
    view = gemm_view(root)
    assert view, view
    assert view.groups == {"b": (0,), "m": (1,), "n": (2, 3), "k": (4, 5, 6)} and view.inputs == {"A": 1, "B": 0}
    assert view.dims["A"] == ("m", "k") and view.runs("A") == c * k * k
    assert (view.dims["B"], view.runs("B")) == ((("k", "n"), ow) if stride == 1 else (("n", "k"), k))
    x = np.random.default_rng(0).standard_normal((n, c, h, w))
    cols = np.empty((n, c, k, k, oh, ow))
    for i, j in itertools.product(range(k), range(k)):
        cols[:, :, i, j] = x[:, :, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride]
    cols = cols.reshape(n, c * k * k, oh * ow)  # per batch [K, N]
    bb, kk, nn = np.meshgrid(np.arange(n), np.arange(c * k * k), np.arange(oh * ow), indexing="ij")
    matrix = [kk, nn] if view.dims["B"] == ("k", "n") else [nn, kk]
    got = _evaluate(view.indices("B", [index_expr.var("x0"), index_expr.var("x1")], [index_expr.var("b")]),
                    x0=matrix[0], x1=matrix[1], b=bb)
    np.testing.assert_array_equal(x[tuple(got)], cols)
    out = _evaluate(view.output_loops(index_expr.var("m"), index_expr.var("n"), [index_expr.var("b")]),
                    m=np.full(5, 4), n=np.arange(5), b=np.full(5, 1))
    assert [list(v) for v in out] == [[1] * 5, [4] * 5, [i // ow for i in range(5)], [i % ow for i in range(5)]]
    assert view.output_groups() == ["b", "m", "n", "n"]


def test_depthwise_is_refused():
    module, root = _generic(["(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d2 + d5, d3)",
                             "(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)",
                             "(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)"],
                            [(2, 9, 9, 8), (3, 3, 8), (2, 7, 7, 8)], ["parallel"] * 4 + ["reduction"] * 2)
    assert "depthwise" in gemm_view(root).reason


def test_a_division_is_refused():
    module, root = _generic(["(d0, d1, d2) -> (d0 floordiv 2, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"],
                            [(4, 4), (4, 5), (8, 5)], ["parallel", "parallel", "reduction"])
    assert "sums of loops times strides" in gemm_view(root).reason


@pytest.mark.parametrize("h,w,s,run,stride", [
    (9, 11, 2, 1, None),    # an odd row: the last 2-wide read would pass its end, one element
    (9, 12, 2, 2, 2),       # 6 output columns: vectors of 2, each read 4 wide
    (56, 56, 2, 4, 2),      # the ResNet projection: 28 columns, vectors of 4 read 8 wide
    (9, 16, 4, 4, 4),       # stride 4: 4 columns, vectors of 4 read 16 wide
    (7, 12, 3, 1, None),    # stride 3 (not a power of 2): one element
])
def test_strided_slice_is_folded_into_the_image_indices(h, w, s, run, stride):
    """A 1x1 stride-s NCHW convolution as IREE forms it: a contraction of a strided slice of the
    image (strides [1, 1, s, s]) by filters without the batch dim. The view reads the whole
    image, the slice folded into its sums: element (oh, ow) of the slice at (s oh, s ow). The
    image is read along the output columns (every s-th element of a row), not along the
    channels (a row apart): in vectors of `run` read `run * s` wide from multiples of that,
    inside the row, where s is a power of 2 and the row holds the last read."""
    from ldsopt.codegen.dispatch import Strided
    n, c, f = 2, 13, 24
    oh, ow = (h - 1) // s + 1, (w - 1) // s + 1
    module, root = _generic(["(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)", "(d0, d1, d2, d3, d4) -> (d1, d4)",
                             "(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)"],
                            [(n, c, oh, ow), (f, c), (n, f, oh, ow)], ["parallel"] * 4 + ["reduction"])
    image = Strided(ir.RankedTensorType.get([n, c, h, w], ir.F32Type.get()), None, offsets=(0, 0, 0, 0),
                    strides=(1, 1, s, s))
    view = gemm_view(root, {0: image})
    assert view, view
    assert view.groups == {"b": (0,), "m": (1,), "n": (2, 3), "k": (4,)}
    assert (view.dims["B"], view.runs("B"), view.strides.get("B")) == (("k", "n"), run, stride)
    x = np.random.default_rng(0).standard_normal((n, c, h, w))
    bb, kk, nn = np.meshgrid(np.arange(n), np.arange(c), np.arange(oh * ow), indexing="ij")
    got = _evaluate(view.indices("B", [index_expr.var("x0"), index_expr.var("x1")], [index_expr.var("b")]),
                    x0=kk, x1=nn, b=bb)
    np.testing.assert_array_equal(x[tuple(got)], x[:, :, ::s, ::s].reshape(n, c, oh * ow))
    if stride:
        # Each vector's wide read: its first element's row index a multiple of the read's width,
        # the read inside the row, and every s-th element of it the vector's values.
        width = view.read_width("B", run)
        assert width == run * s and view.aligned_vectors("B", width)
        first = np.asarray(got)[:, :, :, ::run]
        assert (first[3] % width == 0).all() and (first[3] + width <= w).all()
        rows = np.stack([x[first[0], first[1], first[2], first[3] + i] for i in range(width)], -1)
        vectors = x[:, :, ::s, ::s].reshape(n, c, oh * ow // run, run)
        np.testing.assert_array_equal(rows[..., ::s], vectors)


@pytest.mark.parametrize("c,low,high,stride", [
    (5, (1, 1), (1, 1), 1),  # odd channels, padding 1
    (3, (3, 3), (3, 3), 2),  # the stem's padding 3 at stride 2
    (8, (2, 0), (1, 2), 1),  # asymmetric
])
def test_padding_is_read_in_the_bound_image(c, low, high, stride):
    """An NHWC image padded by zeros in the dispatch (`Padded`): the view indexes the bound
    (unpadded) image, the low padding subtracted; where a padded dim's index is outside its
    extent (unsigned) the element is a border zero. Together they gather numpy's im2col of the
    padded image. A padded dim ends the run: a vector of channels is at one image position."""
    from ldsopt.codegen.padding import Padded
    n, h, w, f, k = 2, 7, 11, 6, 3
    hp, wp = h + low[0] + high[0], w + low[1] + high[1]
    oh, ow = (hp - k) // stride + 1, (wp - k) // stride + 1
    module, root = _nhwc(n, hp, wp, c, f, k, stride, 1, "fhwc")
    image = Padded(ir.RankedTensorType.get([n, h, w, c], ir.F32Type.get()), None,
                   low=(0, *low, 0), high=(0, *high, 0), value=ir.FloatAttr.get(ir.F32Type.get(), 0.0))
    view = gemm_view(root, {0: image})
    assert view, view
    assert view.padded == {"A": ((1, h), (2, w))} and view.runs("A") == c
    assert view.aligned_vectors("A", 1) and view.aligned_vectors("A", c) and not view.aligned_vectors("A", 2 * c)
    x = np.random.default_rng(0).standard_normal((n, h, w, c))
    xp = np.pad(x, ((0, 0), (low[0], high[0]), (low[1], high[1]), (0, 0)))
    cols = np.empty((n, oh, ow, k, k, c))
    for i, j in itertools.product(range(k), range(k)):
        cols[:, :, :, i, j, :] = xp[:, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride, :]
    cols = cols.reshape(n * oh * ow, k * k * c)
    m_idx, k_idx = np.meshgrid(np.arange(view.size("m")), np.arange(view.size("k")), indexing="ij")
    idx = _evaluate(view.indices("A", [index_expr.var("x0"), index_expr.var("x1")]), x0=m_idx, x1=k_idx)
    inside = np.ones(m_idx.shape, bool)
    for d, extent in view.padded["A"]:
        inside &= (idx[d] >= 0) & (idx[d] < extent)  # the kernel's unsigned compare
    assert not inside.all()  # some reads fall in the border
    clamped = tuple(np.clip(i, 0, s - 1) for i, s in zip(idx, x.shape))
    np.testing.assert_array_equal(np.where(inside, x[clamped], 0.0), cols)


def test_padded_nchw_rows_may_straddle_the_border():
    """NCHW padded in its rows and columns: the image B [K, N] keeps its run along the output's
    columns (the padded innermost dim), whose vectors may straddle the border (`straddles`);
    element by element, the view with its bounds gathers numpy's im2col of the padded image."""
    from ldsopt.codegen.padding import Padded
    n, c, f, k, h, w = 2, 3, 5, 3, 6, 16
    module, root = _generic(["(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)",
                             "(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)",
                             "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)"],
                            [(n, c, h + 2, w + 2), (f, c, k, k), (n, f, h, w)], ["parallel"] * 4 + ["reduction"] * 3)
    image = Padded(ir.RankedTensorType.get([n, c, h, w], ir.F32Type.get()), None, low=(0, 0, 1, 1), high=(0, 0, 1, 1),
                   value=ir.FloatAttr.get(ir.F32Type.get(), 0.0))
    view = gemm_view(root, {0: image})
    assert view, view
    assert (view.dims["B"], view.runs("B"), view.straddles("B")) == (("k", "n"), w, (3, w))
    assert view.straddles("A") is None and not view.aligned_vectors("B", 4)
    x = np.random.default_rng(0).standard_normal((n, c, h, w))
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = np.empty((n, c, k, k, h, w))
    for i, j in itertools.product(range(k), range(k)):
        cols[:, :, i, j] = xp[:, :, i:i + h, j:j + w]
    bb, kk, nn = np.meshgrid(np.arange(n), np.arange(c * k * k), np.arange(h * w), indexing="ij")
    idx = _evaluate(view.indices("B", [index_expr.var("x0"), index_expr.var("x1")], [index_expr.var("b")]),
                    x0=kk, x1=nn, b=bb)
    inside = np.ones(kk.shape, bool)
    for d, extent in view.padded["B"]:
        inside &= (idx[d] >= 0) & (idx[d] < extent)
    clamped = tuple(np.clip(i, 0, s - 1) for i, s in zip(idx, x.shape))
    np.testing.assert_array_equal(np.where(inside, x[clamped], 0.0), cols.reshape(n, c * k * k, h * w))


def _nchw(n, c, h, w, f, k, dilation, pad=0):
    """An NCHW convolution (FCHW filters, stride 1) as IREE generalizes it, its image padded by
    `pad` in its rows and columns where given (`Padded`); the root and the image's binding."""
    from ldsopt.codegen.padding import Padded
    oh, ow = h + 2 * pad - dilation * (k - 1), w + 2 * pad - dilation * (k - 1)
    s = f" * {dilation}" if dilation > 1 else ""
    module, root = _generic([f"(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5{s}, d3 + d6{s})",
                             "(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)",
                             "(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)"],
                            [(n, c, h + 2 * pad, w + 2 * pad), (f, c, k, k), (n, f, oh, ow)],
                            ["parallel"] * 4 + ["reduction"] * 3)
    image = Padded(ir.RankedTensorType.get([n, c, h, w], ir.F32Type.get()), None, low=(0, 0, pad, pad),
                   high=(0, 0, pad, pad), value=ir.FloatAttr.get(ir.F32Type.get(), 0.0))
    return module, root, ({0: image} if pad else {}), (n, c, h, w)


@pytest.mark.parametrize("form", [
    ("nhwc", (2, 13, 15, 5, 7, 3, 1, 1, "fhwc")),   # primes
    ("nhwc", (1, 9, 10, 2, 4, 2, 1, 1, "fhwc")),    # a run of 2 channels x 2 columns, at ow * 2
    ("nhwc", (1, 15, 14, 12, 20, 3, 1, 2, "fhwc")),  # dilation 2
    ("nhwc", (2, 17, 19, 16, 37, 3, 2, 1, "hwcf")),  # stride 2, filters K x N
    ("nchw", (1, 8, 20, 20, 32, 3, 2)),             # `ow + 2 kw`: rows of 20, runs at even offsets
    ("nchw", (2, 3, 13, 16, 5, 3, 1)),              # `ow + kw`
    ("nchw", (1, 4, 6, 16, 8, 3, 1, 1)),            # `ow + kw - 1`, padded
    ("nchw", (1, 2, 5, 8, 3, 1, 1, 4)),             # 1x1 padded by 4: whole rows of 8 at -4 + 16 h
])
def test_start_steps_give_the_alignment_of_every_run(form):
    """`start_steps` over a tensor's row-major strides: their gcd is the gcd of the offsets in
    memory of every start of each operand's runs (its matrix index along the run dim a multiple
    of `runs`), numpy's over every such position: a vector of a copy is aligned to its size
    exactly where that size divides it."""
    kind, args = form
    if kind == "nhwc":
        (module, root), padded, image = _nhwc(*args), {}, None
    else:
        module, root, padded, image = _nchw(*args)
    view = gemm_view(root, padded)
    assert view, view
    shapes = {r: image if image and view.inputs[r] == 0 else
              tuple(ir.RankedTensorType(root.operands[view.inputs[r]].type).shape) for r in ("A", "B")}
    for role in ("A", "B"):
        shape, run = shapes[role], view.runs(role)
        strides = [int(np.prod(shape[d + 1:])) for d in range(len(shape))]
        sizes = [view.size(d) for d in view.dims[role]]
        batch = [index_expr.var("b")] if view.groups["b"] else []
        grids = np.meshgrid(*([np.arange(view.size("b"))] if batch else []), np.arange(sizes[0]),
                            np.arange(0, sizes[1], run), indexing="ij")
        env = dict(zip((["b"] if batch else []) + ["x0", "x1"], grids))
        idx = _evaluate(view.indices(role, [index_expr.var("x0"), index_expr.var("x1")], batch), **env)
        offsets = sum(np.asarray(i) * s for i, s in zip(idx, strides))
        assert np.gcd.reduce(np.abs(offsets).ravel()) == np.gcd.reduce(np.abs(view.start_steps(role, strides))), role
        assert view.start_steps(role, strides[1:]) == [1]  # strides it cannot map: unaligned
