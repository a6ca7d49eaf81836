"""ldsopt.codegen.elementwise.collapse_groups: dims merge only where every operand keeps them
adjacent and in order (permuted operands included)."""

from ldsopt.codegen.elementwise import collapse_groups


def test_sorted_operands_merge_runs_present_or_absent_alike():
    # A 64x56x56x128 add with a per-channel bias: (n, h, w) merge, c stays apart.
    assert collapse_groups([64, 56, 56, 128], [[0, 1, 2, 3], [3], [0, 1, 2, 3]]) == [[0, 1, 2], [3]]


def test_nhwc_input_of_nchw_output_merges_hw_only():
    # Output (n, c, h, w); an NHWC input reads (n, h, w, c): h, w stay adjacent and in order.
    assert collapse_groups([2, 64, 7, 7], [[0, 2, 3, 1], [0, 1, 2, 3]]) == [[0], [1], [2, 3]]


def test_reversed_operand_merges_nothing():
    assert collapse_groups([3, 4, 5], [[2, 1, 0], [0, 1, 2]]) == [[0], [1], [2]]


def test_present_and_absent_do_not_merge():
    assert collapse_groups([4, 8], [[1], [0, 1]]) == [[0], [1]]
