"""ldsopt/matmul/output_stage.py: the copy vector, the pad the bank model picks, what is refused."""

import numpy as np

from ldsopt.layout.banks import BankModel
from ldsopt.matmul import output_stage

NV = BankModel.nvidia()


def _mma_sync_c(lane: int) -> list[tuple[int, int, int]]:
    """mma.sync m16n8's C pieces of a lane (rows lane / 4 and 8 below, 2 elements at 2 (lane % 4))."""
    return [(lane // 4, 2 * (lane % 4), 2), (lane // 4 + 8, 2 * (lane % 4), 2)]


def test_copy_vector_is_16_bytes_where_n_allows():
    assert output_stage.copy_vector(64, 512, 2, None) == 8
    assert output_stage.copy_vector(64, 40, 4, None) == 4
    assert output_stage.copy_vector(64, 100, 2, None) == 4      # N = 100: 4 f16 divide it, 8 do not
    assert output_stage.copy_vector(64, 512, 2, 4) == 4         # SPIR-V: vectors of at most 4
    assert output_stage.copy_vector(64, 17, 2, None) == 1


def test_pad_puts_the_rows_of_a_phase_in_different_banks():
    st = output_stage.plan(64, 64, 512, 128, 2, _mma_sync_c, NV, 1 << 16)
    assert (st.vec, st.pad, st.shape) == (8, 8, (64, 72))
    # Unpadded, the 8 rows of a warp's 4-byte writes are 128 bytes apart: one set of 4 banks.
    unpadded = output_stage.OutputStage(64, 64, 0, 8, 128)
    pieces = np.array([_mma_sync_c(lane) for lane in range(32)])
    assert output_stage._cycles(unpadded, pieces, 2, NV) > output_stage._cycles(st, pieces, 2, NV) == 0


def test_refused_where_copies_are_no_wider_or_lds_is_short():
    assert output_stage.plan(64, 64, 17, 128, 2, _mma_sync_c, NV, 1 << 16) is None      # copies of 1
    assert output_stage.plan(64, 64, 512, 128, 2, lambda lane: [(lane // 8, 8 * (lane % 8), 8)], NV,
                             1 << 16) is None                                              # pieces of 8
    assert output_stage.plan(64, 64, 512, 128, 2, _mma_sync_c, NV, 64 * 72 * 2 - 1) is not None  # pad 0 fits
    assert output_stage.plan(64, 64, 512, 128, 2, _mma_sync_c, NV, 64 * 64 * 2 - 1) is None
