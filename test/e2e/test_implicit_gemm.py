"""Convolutions as implicit GEMM (ldsopt/matmul/implicit_gemm.py, lowered by ldsopt-matmul-lds)
end to end: each program of programs/conv (NHWC images with FHWC or HWCF filters; NCHW images
with FCHW filters as IREE's ONNX import keeps them, batched, and a 1x1 one whose filters have no
batch dim; 1x1, 3x3 and 7x7, stride 1 and 2, dilation 2; NCHW 1x1 at strides 2 and 4 whose
rows are read wide and every s-th element kept, and at an odd row one element at a time; NCHW
3x3 whose vectors along a row start off their width (one element at a time on SPIR-V); prime
channels and sizes; f32, and f16
with f32 accumulation; a bias + ReLU, a BatchNorm's scale and shift + ReLU, a residual + ReLU,
a cast to f16 fused after the convolution; zero padding in the program (1 and 3, asymmetric,
NHWC and NCHW, odd channels, prime extents, NCHW rows whose vectors straddle the border), which the driver has IREE fuse into the
convolution's dispatch and the implicit GEMM reads as zeros outside the image; a padding of
ones, which ldsopt-window-reduce reads instead) compiled through IREE,
run on lavapipe and checked against IREE's llvm-cpu on the original program; the padded ones
also through ldsopt-dtl-layout's copies (their masks and clamps, by registers on lavapipe); and
a gfx942 compile whose ISA must show the gathered operands staged through LDS into MFMAs,
read back 16 bytes a lane, without spills.
CUDA runs on the H200: `lds-run test/e2e/programs/conv/*.mlir --target cuda --prepare DIR`,
then `python -m ldsopt.run.replay DIR` there."""

import pathlib
import re

import pytest

from ldsopt.measure import isa

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "conv"
# A padding of ones, which the implicit GEMM does not read: ldsopt-window-reduce takes the
# padded convolution as a window reduction (a thread per output).
WINDOWED = {"pad_value_one_fhwc_3x3_s1_bias_f32_1x11x13x7_9"}
# The padded programs with whole 4-byte lanes along the image's runs (ldsopt-dtl-layout stages them).
DTL_PADDED = ("pad_fhwc_3x3_s2_bias_relu_f16_2x17x13x32_24", "pad_asym_fhwc_3x3_s1_bias_f32_1x11x13x7_9",
              "pad_nchw_3x3_s1_bias_relu_f32_2x5x13x11_7", "pad_nchw_3x3_s1_bias_relu_f32_2x5x12x16_7")
PINNED_64x64 = ("builtin.module(ldsopt-vector-distribute, ldsopt-inthread-transpose{tiles=64x64x4x4}, "
                "ldsopt-matmul-lds{tiles=64x64x4x4}, ldsopt-preload-transposed, ldsopt-lower-elementwise, "
                "canonicalize, cse)")


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
def test_lavapipe(name, run_program):
    """The convolution and its fused consumer are one kernel of ldsopt-matmul-lds (an NCHW image
    restaged K-contiguous by ldsopt-inthread-transpose where its plan says so)."""
    text = (PROGRAMS / f"{name}.mlir").read_text()
    out = run_program(text, "--target", "lavapipe", "--require-ldsopt", name=name)
    by = "ldsopt-window-reduce" if name in WINDOWED else "ldsopt-matmul-lds"
    assert re.search(rf"^dispatch \w+_(conv|matmul_like)_\w+: ldsopt: (ldsopt-inthread-transpose, )?{by}$", out, re.M), out


@pytest.mark.parametrize("name", DTL_PADDED)
def test_lavapipe_dtl_padded(name, run_program):
    """ldsopt-dtl-layout's copies of a padded image (each lane's index clamped into the image,
    zeros outside it; by registers on lavapipe, as cp.async's srcElements on CUDA)."""
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      "--pipeline", "builtin.module(ldsopt-dtl-layout, ldsopt-matmul-lds, canonicalize, cse)", name=name)
    assert re.search(r"^dispatch \w+_conv_\w+: ldsopt: ldsopt-dtl-layout, ldsopt-matmul-lds$", out, re.M), out


@pytest.mark.parametrize("name", ["fhwc_3x3_s1_f16_2x16x16x64_128", "pad_fhwc_3x3_s2_bias_relu_f16_2x17x13x32_24"])
def test_gfx942_gathers_into_lds_and_mfma(name, run_program, tmp_path):
    """gfx942, f16 3x3 (64 channels, 128 filters; and 32 channels padded in the dispatch, each
    16-byte read under its image-bounds guard), the tiling pinned to 64x64 (4 waves): the
    image's rows gathered 8 channels a lane (16 bytes) into LDS, read back by ds_read_b128 into
    v_mfma_f32_16x16x16_f16, no spills."""
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "gfx942",
                      "--require-ldsopt", "--pipeline", PINNED_64x64, "--emit-dir", str(tmp_path / "emit"))
    assert "COMPILED" in out
    kernel_ir = (tmp_path / "emit" / "ldsopt.mlir").read_text()
    assert re.search(r'ldsopt.staging = \{dims = \["m", "k"\].*operand = "A".*vector = 8 : i64', kernel_ir), kernel_ir
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.vgpr_spills == 0, kernel.summary()
    assert kernel.mfma > 0 and kernel.barriers >= 1, kernel.summary()
    assert kernel.ds_count("ds_read_b128") > 0, kernel.summary()
    (asm,) = (tmp_path / "emit" / "executables").glob("*.rocmasm")
    text = asm.read_text()
    assert "v_mfma_f32_16x16x16_f16" in text
    assert not re.search(r"^\s*ds_read_u16", text, re.M)  # no narrow fragment reads


def test_gfx942_strided_shortcut_is_restaged_k_contiguous(run_program, tmp_path):
    """gfx942, the NCHW 1x1 stride-2 shortcut (f16, 13 channels, 12-wide rows): the image read
    along its output columns (each vector of 2 read 4 wide, the even ones kept) is raked down K
    and transposed in registers by ldsopt-inthread-transpose, so its MFMA fragments are read 16
    bytes a lane (ds_read_b128), not one element at a time (ds_read_u16); no spills."""
    name = "nchw_1x1_s2_f16_2x13x7x24_24"
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "gfx942", "--require-ldsopt",
                      "--emit-dir", str(tmp_path / "emit"))
    assert re.search(r"^dispatch \w+: ldsopt: ldsopt-inthread-transpose, ldsopt-matmul-lds$", out, re.M), out
    kernel_ir = (tmp_path / "emit" / "ldsopt.mlir").read_text()
    assert re.search(r'ldsopt.staging = \{dims = \["k", "n"\].*operand = "B".*register_transpose = true', kernel_ir)
    assert re.search(r"vector.shuffle %\S+, %\S+ \[0, 2\] : vector<4xf16>", kernel_ir), kernel_ir
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.vgpr_spills == 0 and kernel.mfma > 0, kernel.summary()
    assert kernel.ds_count("ds_read_b128") > 0 and kernel.ds_count("ds_read_u16") == 0, kernel.summary()
