"""`interrupts`: SIGINT and SIGTERM raise Interrupted under `handled()` (so that cleanups run),
and a `shielded()` block runs to its end before either is raised."""

import os
import signal

import pytest

from ldsopt.cli import interrupts


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_raises_interrupted(sig, status):
    with interrupts.handled():
        with pytest.raises(interrupts.Interrupted) as e:
            os.kill(os.getpid(), sig)
    assert e.value.exit_status == status
    assert e.value.line("lds-run") == f"lds-run: interrupted ({signal.Signals(sig).name})"
    assert signal.getsignal(sig) is not interrupts._raise  # the previous handler is back


def test_a_shielded_block_finishes_before_the_signal_is_raised():
    """Removing a temporary folder cut short by a second SIGINT left half of it."""
    done = []
    with interrupts.handled():
        with pytest.raises(interrupts.Interrupted):
            with interrupts.shielded():
                os.kill(os.getpid(), signal.SIGTERM)
                done.append("the rest of the block")
    assert done == ["the rest of the block"]
