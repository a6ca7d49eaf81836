"""The wgmma scheme (ldsopt-matmul-lds on `--target cuda-sm90a`) through IREE 3.13 to PTX: the
hand-written sm_90a target compiles to `.target sm_90a`, where NVVM's wgmma ops survive
IREE's CUDA lowering as `wgmma.mma_async` (inline assembly), with the fences, the group
commits and waits, and cp.async copies, and no local memory (no register array left in
memory; ptxas' own spills show on the device only: `ptxas -arch=sm_90a -v`, see
bench/results/cuda-matmul/wgmma-ed729e5/ptxas.txt). Values need the H200: `lds-run FILE --target
cuda-sm90a --prepare DIR`, then `python -m ldsopt.run.replay DIR` there (the same README has the
programs that passed)."""

import json
import pathlib
import re
import shutil

import pytest

from ldsopt.measure import cases
from ldsopt.run import driver, ptxas_check

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "matmul"


def matmul_lds(options: str = "") -> str:
    """The default pipeline with ldsopt-matmul-lds given `options` (none: as it is)."""
    if not options:
        return driver.DEFAULT_PIPELINE
    return driver.DEFAULT_PIPELINE.replace("ldsopt-matmul-lds,", f"ldsopt-matmul-lds{{{options}}},")


@pytest.mark.parametrize("name, transposes", [("nn_f16_96x160x64", "0,  1"), ("tn_f16_64x96x48", "1,  1"),
                                              ("batch_nt_f16_2x64x80x48_acc", "0,  0")])
def test_sm90a_compiles_to_wgmma(name, transposes, ptx_of, tmp_path):
    """B [k, n] (NN) and A [k, m] (TN) are read transposed (wgmma's imm-trans-a, imm-trans-b
    after the scales), K-contiguous ones (NT) as they are."""
    text, report = ptx_of((PROGRAMS / f"{name}.mlir").read_text(), "cuda-sm90a", tmp_path)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert ".target sm_90a" in text
    issued = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n(?:48|64)k16\.f32\.[^;]*;", text)
    assert len(issued) == 4, text[:3000]  # one 64-element K step: 4 of k16 (n48: NT's 80 columns)
    assert all(i.endswith(f"p, 1,  1, {transposes};") for i in issued), issued[0]
    for op in ("wgmma.fence.sync.aligned", "wgmma.commit_group.sync.aligned", "wgmma.wait_group.sync.aligned \t1",
               "fence.proxy.async.shared::cta", "cp.async.cg.shared.global"):
        assert op in text, op
    assert ".local" not in text and "mma.sync" not in text


def test_sm89_keeps_mma_sync(ptx_of, tmp_path):
    text, _ = ptx_of((PROGRAMS / "nn_f16_96x160x64.mlir").read_text(), "cuda", tmp_path)
    assert ".target sm_89" in text and "mma.sync.aligned.m16n8k16" in text and "wgmma" not in text


CLUSTER = pathlib.Path(__file__).parent / "programs" / "matmul_cluster"
CHUNK_STATS = pathlib.Path(__file__).parent / "programs" / "matmul_chunk_stats"


@pytest.mark.parametrize("name, split", [("nn_f16_512x768x3072_bias_residual", 8), ("tn_f16_136x264x512", 2),
                                         ("batch_nt_bf16_2x130x260x512", 4), ("nn_f16_200x296x1000", 4)])
def test_k_split_over_a_cluster_compiles(name, split, ptx_of, tmp_path):
    """`cluster-k`: PTX declares the cluster (`.reqnctapercluster`, which a plain launch
    honours) and sums the partials through distributed shared memory: one remote 16-byte
    store (`mapa`) per 4 f32 of a thread's partial sums into the summing workgroup's LDS,
    between the two cluster barriers, and there one local read per 4 f32 of each other
    workgroup's; no local memory. Values need the H200:
    bench/results/cuda-matmul/cluster-split-*/ has the programs' replays there."""
    pipeline = matmul_lds(f"cluster-k={split}")
    text, report = ptx_of((CLUSTER / f"{name}.mlir").read_text(), "cuda-sm90a", tmp_path, pipeline)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert f".reqnctapercluster {split}, 1, 1" in text and ".explicitcluster" in text
    assert text.count("barrier.cluster.arrive") == 2 and text.count("barrier.cluster.wait") == 2
    n = int(re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16", text).group(1))
    assert text.count("st.shared::cluster.v4.f32") == text.count("mapa.shared::cluster.u32") == n // 8
    assert text.count("ld.shared.v4.f32") == (split - 1) * n // 8
    assert ".local" not in text


def test_chunk_stats_under_a_k_split_compile(ptx_of, tmp_path):
    """GPT-2's FFN down with statistics per chunk of 64 columns of its result (what the next
    layer's folded norm reads): the plan splits its K over a cluster of 2 as it does the plain
    product, and the summing warps make the statistics from their registers: one shuffle of the
    chunk's first element per row and chunk a warp holds (2 rows of 2 chunks of its 64x128
    tile's), sums over the quads (xor 1, 2), no output stage, no local memory."""
    text, report = ptx_of((CHUNK_STATS / "residual_chunks_f16_512x768x3072.mlir").read_text(), "cuda-sm90a", tmp_path)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert ".reqnctapercluster 2, 1, 1" in text and "wgmma.mma_async.sync.aligned.m64n128k16" in text
    assert text.count("shfl.sync.idx.b32") == 4 and text.count("shfl.sync.bfly.b32") >= 16
    assert ".local" not in text


LARGE = pathlib.Path(__file__).parent / "programs" / "matmul_large"
MULTICAST = pathlib.Path(__file__).parent / "programs" / "matmul_multicast"
PERSISTENT = pathlib.Path(__file__).parent / "programs" / "matmul_persistent"


@pytest.mark.parametrize("name, tiles, rank, boxes", [("tn_f16_weighted_4096x2304x96", "", 2, 5),
                                                      ("tn_f16_weighted_4096x2304x96", "128x128x8x8", 2, 4),
                                                      ("batch_nt_bf16_weighted_2x520x2048x520", "128x128x8x8", 3, 2)])
def test_tma_copies_compile(name, tiles, rank, boxes, ptx_of, tmp_path):
    """The operands of a large product copied by TMA (ldsopt/matmul/tma_copy.py): the maps
    built on the device (`tensormap.replace` into LDS, published by `tensormap.cp_fenceproxy`,
    acquired by the issuing thread), mbarriers that count each K step's bytes, `boxes` boxes of
    `rank` dims a step (TN's MN-major operands a box per 64 columns: 2 + 3 in the 128x192
    tiles the plan takes, 2 + 2 in 128x128 ones; the batch NT's one box each, the batch their
    third dim), waits by phase parity, and no cp.async or local memory left. Values need the
    H200: the matmul_large programs' replays in bench/results/cuda-matmul/tma-*/ and
    wave-tiles-128x192/."""
    text, report = ptx_of((LARGE / f"{name}.mlir").read_text(), "cuda-sm90a", tmp_path,
                          matmul_lds(f"tiles={tiles}" if tiles else ""))
    start = text.index(".entry main_dispatch_0")
    product = text[start:text.find(".entry", start + 1)]
    assert "wgmma.mma_async" in product
    assert product.count("tensormap.cp_fenceproxy.global.shared::cta") == 2
    assert product.count("fence.proxy.tensormap::generic.acquire.gpu") == 2
    assert "mbarrier.try_wait.parity.shared.b64" in product and "mbarrier.arrive.expect_tx" in product
    loads = re.findall(rf"cp\.async\.bulk\.tensor\.{rank}d\.shared::cluster\.global", product)
    assert loads and len(loads) == boxes * product.count("mbarrier.arrive.expect_tx"), len(loads)
    assert "cp.async.cg" not in product and ".local" not in product


def test_tma_false_keeps_cp_async(ptx_of, tmp_path):
    pipeline = matmul_lds("tma=false")
    text, _ = ptx_of((LARGE / "tn_f16_weighted_4096x2304x96.mlir").read_text(), "cuda-sm90a", tmp_path, pipeline)
    assert "cp.async.cg.shared.global" in text and "cp.async.bulk.tensor" not in text


CONV = pathlib.Path(__file__).parent / "programs" / "conv"


@pytest.mark.parametrize("name", ["fhwc_3x3_s2_bias_relu_f16_2x17x19x16_37", "fhwc_1x1_s2_f16_2x9x11x16_20"])
def test_convolution_takes_wgmma(name, ptx_of, tmp_path):
    """An f16 convolution's implicit GEMM on sm_90a: wgmma, its image gathered by the cp.async
    copies' addresses, no mma.sync and no local memory (a padded image's border as the copies'
    zero fill: lit `matmul_lds/wgmma_conv.mlir`). Values need the H200:
    bench/results/cuda-conv/wgmma-sm90a/values.txt."""
    text, report = ptx_of((CONV / f"{name}.mlir").read_text(), "cuda-sm90a", tmp_path)
    assert [r["passes"] for r in report] == [["ldsopt-matmul-lds"]], report
    assert "wgmma.mma_async.sync.aligned" in text and "mma.sync" not in text
    assert "cp.async.cg.shared.global" in text and ".local" not in text


ROW_SUMS = pathlib.Path(__file__).parent / "programs" / "matmul_row_sums"
ROW_VALUES = pathlib.Path(__file__).parent / "programs" / "matmul_row_values"
CHUNK_STATS = pathlib.Path(__file__).parent / "programs" / "matmul_chunk_stats"


def test_row_sums_compile_to_wgmma(ptx_of, tmp_path):
    """A LayerNorm folded into the product: the wgmma kernel sums x's rows from its swizzled A
    tiles, 16 bytes a read, and combines each row's lanes by shuffles after the K loop."""
    text, report = ptx_of((ROW_SUMS / "layernorm_bf16_128x96x256.mlir").read_text(), "cuda-sm90a", tmp_path)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n\d+k16\.f32\.bf16\.bf16", text)
    assert "ld.shared.v4.b32" in text or "ld.shared.v4.u32" in text, text[:3000]
    assert "shfl.sync.bfly.b32" in text and ".local" not in text


def test_row_values_compile_to_wgmma(ptx_of, tmp_path):
    """A norm folded into the product with its rows' sums combined from loaded per-chunk
    statistics (GPT-2's 12 chunks of 64): the wgmma kernel loads them before its K loop, q = 16
    lanes a row, a chunk a lane (global loads of the chunks' f32 sums and x's 16-bit elements),
    and adds the lanes' sums by butterfly shuffles; no spills."""
    text, report = ptx_of((ROW_VALUES / "layernorm_chunks_f16_256x384x768.mlir").read_text(), "cuda-sm90a", tmp_path)
    assert [r["passes"] for r in report if r["passes"]] == [["ldsopt-matmul-lds"]], report
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n\d+k16\.f32\.f16\.f16", text)
    assert re.search(r"ld\.global(\.nc)?\.(b|f)32\b", text) and re.search(r"ld\.global(\.nc)?\.b16\b", text)
    assert re.search(r"shfl\.sync\.bfly\.b32", text) and ".local" not in text


def test_chunk_stats_compile_to_wgmma(ptx_of, tmp_path):
    """GPT-2's O projection with its residual epilogue and statistics per chunk of 64 columns of
    its result: the wgmma kernel's output stage (16-byte LDS reads of its rows) feeds both
    its copy out and the chunks' sums, which it stores as f32 scalars; unsplit (a K split
    would leave the tile to one workgroup of the cluster)."""
    text, report = ptx_of((CHUNK_STATS / "residual_chunks_f16_512x768x768.mlir").read_text(), "cuda-sm90a",
                          tmp_path)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n\d+k16\.f32\.f16\.f16", text)
    assert re.search(r"ld\.shared\.v4\.(b|u)32", text) and re.search(r"st\.global\.(f|b)32\b", text)
    assert ".reqnctapercluster" not in text and ".local" not in text


@pytest.mark.parametrize("asked, share", [(0, 1), (8, 8), (4, 4), (2, 2)])
def test_row_sums_shared_over_a_cluster(asked, share, ptx_of, tmp_path):
    """The row sums of a product of eight N tiles a band (row_stats.shared_by): unshared by
    default, `row-sums-cluster` the most workgroups of a cluster along N that share them; each
    workgroup adds its 3 x 64 entries of the cluster's arrays after a cluster barrier, a
    remote load each (2 passes of 128 threads), then a second barrier. Values need Hopper:
    bench/results/cuda-models/row-share/."""
    pipeline = matmul_lds(f"row-sums-cluster={asked}" if asked else "")
    text, report = ptx_of((ROW_SUMS / "layernorm_f16_100x512x456.mlir").read_text(), "cuda-sm90a", tmp_path,
                          pipeline)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert (f".reqnctapercluster {share}, 1, 1" in text) == (share > 1)
    assert text.count("ld.shared::cluster.f32") == (2 * share if share > 1 else 0)
    assert text.count("barrier.cluster.arrive") == (2 if share > 1 else 0) and ".local" not in text


@pytest.mark.parametrize("name, shape, masks, refills", [("nn_f16_512x768x3072_bias_residual", "2x2", 2, True),
                                                         ("tn_f16_256x512x520", "4x2", 2, True),
                                                         ("tn_f16_256x512x520", "2x1", 1, True),
                                                         ("tn_f16_256x512x520", "1x2", 1, True),
                                                         ("nt_f16_250x384x200", "2x2", 2, False)])
def test_multicast_compiles(name, shape, masks, refills, ptx_of, tmp_path):
    """`multicast=CMxCN`: PTX declares the cluster (x along N: `.reqnctapercluster CN, CM, 1`),
    `masks` of each K step's boxes are multicast (those of the operands shared by more than one
    workgroup), one cluster barrier before the K loop and one after it, and where the K loop
    refills LDS tiles (more K steps than the 4 LDS tiles) each release of one is a remote
    arrival (`mapa`, then `mbarrier.arrive.shared::cluster`) on the writers' mbarriers. Values
    need the H200: bench/results/cuda-matmul/multicast/."""
    pipeline = matmul_lds(f"tiles=64x64x8x4 cluster-k=1 multicast={shape}")
    text, report = ptx_of((MULTICAST / f"{name}.mlir").read_text(), "cuda-sm90a", tmp_path, pipeline)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    cm, cn = shape.split("x")
    start = text.index(".entry main_dispatch_0")
    product = text[start:text.find(".entry", start + 1)]
    assert f".reqnctapercluster {cn}, {cm}, 1" in text
    steps = product.count("mbarrier.arrive.expect_tx")
    assert product.count(".multicast::cluster") == masks * steps, product.count(".multicast::cluster")
    assert product.count("cp.async.bulk.tensor") == 2 * steps
    assert ("mbarrier.arrive.shared::cluster.b64" in product) == refills
    assert ("mapa.shared::cluster" in product) == refills
    assert product.count("barrier.cluster.arrive") == 2 and ".local" not in product


def test_output_stage_after_odd_mbarriers_stays_aligned(ptx_of, tmp_path):
    """A TMA kernel at 3 LDS tiles has 24 bytes of mbarriers, after which IREE packed the output
    stage (f16 out, 128x256 tiles) at byte 280: its 16-byte LDS reads faulted and the kernel
    hung on the H100 (bench/results/cuda-matmul/stages3-hang/). The stage's alloc states its
    copies' alignment; every 16-byte LDS access's constant offset is a multiple of 16."""
    program = cases._matmul_epilogue(0, 256, 512, 512, "kn", "cast").mlir
    pipeline = matmul_lds("tiles=128x256x8x16 stages=3")
    text, report = ptx_of(program, "cuda-sm90a", tmp_path, pipeline)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert "cp.async.bulk.tensor" in text and "mbarrier.init" in text
    offsets = [int(o) for o in re.findall(r"(?:ld|st)\.shared\.v4\.b32\s+(?:\{[^}]*\}, )?\[%r\w+\+(\d+)\]", text)]
    assert offsets and all(o % 16 == 0 for o in offsets), offsets


@pytest.mark.parametrize("case, stores, shuffles", [(("kn", "cast"), 16, 48), (("nk", "bias_gelu"), 16, 48)])
def test_direct_16bit_stores_widen_across_quads(case, stores, shuffles, ptx_of, tmp_path):
    """A 128x256 tile of f16 out leaves no LDS for the output stage: its 64 pieces of 4 bytes a
    lane go out as 16 stores of 16 bytes, 4 blocks' pieces exchanged among each quad's lanes by
    3 shuffles (quad_stores.py), the epilogue (a bias and GELU) applied before the exchange."""
    program = cases._matmul_epilogue(0, 128, 512, 192, *case).mlir
    pipeline = matmul_lds("tiles=128x256x8x16")
    text, report = ptx_of(program, "cuda-sm90a", tmp_path, pipeline)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert text.count("st.global.v4.b32") == stores and "st.global.b32" not in text
    assert text.count("shfl.sync.bfly.b32") == shuffles and "ld.shared.v4" not in text


def test_walk_stores_each_tile_across_quads(ptx_of, tmp_path):
    """By default a product of more tiles than SMs walks them (persistent=auto): 1152x2048x192 on
    64x256 tiles is 144 tiles on 132 workgroups, each tile's f16 output (bias and residual
    added) stored 16 bytes a lane inside the walk. Values: bench/results/cuda-matmul/quad-stores/
    walk.sh (numpy on the GPU machine)."""
    program = cases._matmul_epilogue(0, 1152, 2048, 192, "kn", "bias_residual").mlir
    pipeline = matmul_lds("tiles=64x256x8x16 output-lds=false")
    text, report = ptx_of(program, "cuda-sm90a", tmp_path, pipeline)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert "cp.async.bulk.tensor" in text and ".maxntid 128, 1, 1" in text
    assert re.search(r"mad\.lo\.s32\s+%r\d+, %r\d+, 132, %r\d+;", text)  # tile j of workgroup w: w + 132 j
    assert text.count("st.global.v4.b32") == 16 and "st.global.b32" not in text
    assert text.count("shfl.sync.bfly.b32") == 48


def test_direct_f32_stores_stay_as_held(ptx_of, tmp_path):
    """An f32 output's 8-byte pieces already fill each row's 32-byte sector a store; widened
    they measured slower (bench/results/cuda-matmul/quad-stores/), so they stay: 64 stores of
    8 bytes a lane, no shuffle."""
    program = cases._matmul(128, 512, 192, "f16", "mk", "kn").mlir
    pipeline = matmul_lds("tiles=128x256x8x16")
    text, _ = ptx_of(program, "cuda-sm90a", tmp_path, pipeline)
    assert text.count("st.global.v2.b32") == 64 and "shfl.sync" not in text


@pytest.mark.parametrize("case, tiles, boxes", [(("plain", "kn", 4), "128x128x8x8", 4),
                                               (("bias_residual", "kn", 2), "64x256x8x16", 4)])
def test_walk_stores_tiles_by_tma(case, tiles, boxes, ptx_of, tmp_path):
    """With tma-store=true a walking kernel's tiles leave by the copy engine (tma_store.py): per
    tile, thread 0 waits for the boxes before to be read out of the stage and, after the fence
    and the barrier, issues one box of 128 bytes a row per 32 f32 (64 f16) columns as a bulk
    group; the last tile waits for all of them written and is copied out by the threads in
    16-byte pieces. An f32 output (2056x2304x520 on 128x128) and an f16 one with a bias and a
    residual (2100x2048x200 on 64x256). Values: bench/results/cuda-matmul/tma-store/."""
    kind, b_stored, out_bytes = case
    sizes = {"plain": (2056, 2304, 520), "bias_residual": (2100, 2048, 200)}[kind]
    program = cases._matmul(*sizes, "f16", "mk", b_stored) if kind == "plain" else \
        cases._matmul_epilogue(0, *sizes, b_stored, kind)
    text, report = ptx_of(program.mlir, "cuda-sm90a", tmp_path, matmul_lds(f"tiles={tiles} workgroups-per-cu=1 tma-store=true"))
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    assert text.count("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group") == boxes
    assert text.count("cp.async.bulk.commit_group") == 1
    assert "cp.async.bulk.wait_group.read \t0" in text and "cp.async.bulk.wait_group \t0" in text
    assert "fence.proxy.async.shared::cta" in text and "elemtype.shared::cta.b1024.b32" in text
    bm, bn, tm, tn = map(int, tiles.split("x"))
    assert text.count("st.global.v4.b32") == bm * bn * out_bytes // 16 // (bm // tm * bn // tn)  # the last tile
    assert "st.global.v2.b32" not in text and "st.global.b32" not in text


PTXAS = shutil.which("ptxas")


@pytest.mark.skipif(PTXAS is None, reason="ptxas (CUDA) not on PATH")
@pytest.mark.parametrize("program, options", [
    (PROGRAMS / "nn_f16_96x160x64.mlir", ""),
    (CLUSTER / "tn_f16_136x264x512.mlir", "cluster-k=2"),
    (LARGE / "tn_f16_weighted_4096x2304x96.mlir", ""),
    (ROW_SUMS / "layernorm_f16_100x512x456.mlir", "row-sums-cluster=4"),
    (MULTICAST / "nn_f16_512x768x3072_bias_residual.mlir", "tiles=64x64x8x4 cluster-k=1 multicast=2x2"),
    (MULTICAST / "tn_f16_256x512x520.mlir", "tiles=64x64x8x4 cluster-k=1 multicast=4x2 stages=8"),
    (PERSISTENT / "nt_f16_residual_2100x2048x136.mlir", "tiles=128x256x8x16 persistent=true"),
    (PERSISTENT.with_name("matmul_persistent_stage") / "nn_f16_weighted_2056x2304x520.mlir",
     "tiles=128x128x8x8 workgroups-per-cu=1 persistent=true"),
    (PERSISTENT.with_name("matmul_persistent_stage") / "nn_f16_weighted_2056x2304x520.mlir",
     "tiles=128x128x8x8 workgroups-per-cu=1 tma-store=true"),
])
def test_ptxas_keeps_the_wgmmas_asynchronous(program, options, ptx_of, tmp_path):
    """ptxas assembles each form of the wgmma kernel (plain, a K split, TMA copies, shared row
    sums, a producer warp under a multicast, a persistent walk over the tiles) without a
    performance warning: one (C7515) means it serialized every wgmma of the kernel, as it did
    when the producer warp's branch defined the accumulator's registers (the multicast kernels
    then ran 1.5x slower than unshared, bench/results/cuda-matmul/multicast-depth/), and as
    C7514 did for a persistent walk of one flat loop branching at each tile's end; and without
    spills. `lds-run` reports the
    same per dispatch (ldsopt/run/ptxas_check.py)."""
    pipeline = matmul_lds(options)
    text, report = ptx_of(program.read_text(), "cuda-sm90a", tmp_path, pipeline)
    assert report[0]["passes"] == ["ldsopt-matmul-lds"], report
    kernels = ptxas_check.parse(ptxas_check.assemble(text, PTXAS))
    assert kernels and all(k.registers and k.warnings == [] and k.spill_bytes == 0 for k in kernels.values()), kernels


@pytest.mark.skipif(PTXAS is None, reason="ptxas (CUDA) not on PATH")
def test_prepare_records_what_ptxas_says(lds_run, tmp_path):
    """`lds-run --prepare` for a CUDA target records each ldsopt kernel's registers, spills
    and ptxas's warnings in the manifest's dispatch entry (a clean kernel: none), and prints
    any warning under its dispatch (test_ptxas_check.py)."""
    pipeline = matmul_lds("tiles=64x64x8x4 cluster-k=1 multicast=2x2")
    proc = lds_run(str(MULTICAST / "nt_f16_250x384x200.mlir"), "--target", "cuda-sm90a", "--pipeline", pipeline,
                   "--prepare", str(tmp_path / "p"))
    assert proc.returncode == 0 and "ptxas:" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    (entry,) = json.loads((tmp_path / "p" / "manifest.json").read_text())["dispatches"]
    assert entry["ptxas"]["warnings"] == [] and entry["ptxas"]["spill_bytes"] == 0
    assert 32 <= entry["ptxas"]["registers"] <= 255
