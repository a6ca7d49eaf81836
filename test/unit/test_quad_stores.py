"""quad_stores.rounds: the exchange among a quad's lanes leaves lane q the slots g q .. g q + g - 1
of its group (slot f = 4 j + q' is lane q''s piece of block j), for 16-bit (g = 4) and f32
(g = 2) outputs: simulated lane by lane on labels, as the kernel's selects and shuffles move
the pieces."""

import pytest

from ldsopt.matmul.quad_stores import QUAD, rounds


@pytest.mark.parametrize("g", [2, 4])
def test_each_lane_ends_with_its_row_run(g):
    held = {q: [(q, j) for j in range(g)] for q in range(QUAD)}  # lane q's piece of block j
    slots = {q: [None] * g for q in range(QUAD)}
    for x, send, fill in rounds(g):
        for q in range(QUAD):
            source = q ^ x
            if fill[q] is not None:
                assert send[source] is not None and slots[q][fill[q]] is None
                slots[q][fill[q]] = held[source][send[source]]
    for q in range(QUAD):
        assert slots[q] == [((g * q + t) % QUAD, (g * q + t) // QUAD) for t in range(g)]


def test_xor_zero_keeps_the_lane_own_pieces():
    """Round 0 moves nothing between lanes: what a lane fills there is its own piece."""
    for g in (2, 4):
        x, send, fill = rounds(g)[0]
        assert x == 0 and all((s is None) == (f is None) for s, f in zip(send, fill))
