"""Missed-optimization remarks: why an ldsopt pass left a dispatch to IREE.

Every strategy pass looks at dispatches through `kernel.matched_dispatches`. A matcher
that declines returns an `Unmatched` with its reason (falsy, so it reads as a failed
match); `matched_dispatches` records the reason on the dispatch function, one entry per
pass, in the MISSED dictionary attribute. The attribute travels with the function
through IREE, so the tools read it wherever they look:
- `lds-opt --remarks=missed` prints each reason as a remark at the dispatch root's
  location, `--remarks=all` also one for each pass that lowered a dispatch (in the spirit
  of clang's -Rpass-missed / -Rpass);
- `lds-run` prints, under each dispatch left to IREE, each pass's reason, and a last
  coverage line (`driver.dispatch_report` carries them; `--json` too).

The passes that run on the program, before dispatches exist, say what they did and did not
do at the op through MLIR's optimization remark engine (`program_remark`: category the pass
name, kind passed or missed). The engine is off unless a tool collects them (`collecting`:
lds-opt --remarks prints them as remarks at the op), so they cost nothing elsewhere.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator

from iree.compiler import ir

# On a dispatch func.func: [[pass name, why it left the dispatch], ...] in pipeline order.
MISSED = "ldsopt.missed"


@dataclasses.dataclass(frozen=True)
class Unmatched:
    """A matcher's "no", with the reason a user reads. Falsy, like the None it replaces."""

    reason: str

    def __bool__(self) -> bool:
        return False


def missed(func: ir.Operation, pass_name: str, reason: str) -> None:
    """Records (or, for a pass that runs again, replaces) `pass_name`'s reason on `func`."""
    _record(func, {**reasons(func), pass_name: reason})


def lowered(func: ir.Operation, pass_name: str) -> None:
    """Drops `pass_name`'s reason from `func` once the pass lowered it after all (a later
    matcher of the same pass: vector-distribute's fused rows after its single reduction)."""
    entries = reasons(func)
    if entries.pop(pass_name, None) is None:
        return
    if entries:
        _record(func, entries)
    else:
        del func.attributes[MISSED]


def _record(func: ir.Operation, entries: dict[str, str]) -> None:
    func.attributes[MISSED] = ir.ArrayAttr.get(
        [ir.ArrayAttr.get([ir.StringAttr.get(k), ir.StringAttr.get(v)]) for k, v in entries.items()])


def reasons(func: ir.Operation) -> dict[str, str]:
    """{pass name: reason} recorded on a dispatch function, in pipeline order."""
    if MISSED not in func.attributes:
        return {}
    return {ir.StringAttr(pair[0]).value: ir.StringAttr(pair[1]).value
            for pair in map(ir.ArrayAttr, ir.ArrayAttr(func.attributes[MISSED]))}



# Where the context's remark engine delivers program-level remarks while a tool collects them:
# (location text, passed?, category, message).
_collected: list[tuple[str, bool, str, str]] | None = None


def program_remark(op: ir.Operation, pass_name: str, passed: bool, message: str) -> None:
    """A remark of the program-level pass `pass_name` at `op` (dropped unless collected)."""
    op.location.emit_remark(ir.RemarkKind.PASSED if passed else ir.RemarkKind.MISSED,
                            "applied" if passed else "left-alone", message=message, category=pass_name)


def _deliver(remark) -> None:
    if _collected is not None:  # the remark is valid during this call only: keep its text
        _collected.append((str(remark.location), remark.kind == ir.RemarkKind.PASSED, remark.category_name,
                           dict(remark.args).get("Remark", "")))


@contextlib.contextmanager
def collecting(ctx: ir.Context) -> Iterator[list[tuple[str, bool, str, str]]]:
    """The program-level remarks emitted in `ctx` within the block, as (location text, passed?,
    pass name, message). Turns the context's remark engine on, once (it stays on: a context's
    engine cannot be turned off; outside this block it drops what it gets)."""
    global _collected
    if not ctx.remarks_enabled:
        ctx.enable_remarks(all_filter=".*", callback=_deliver, print_as_emit_remarks=False)
    _collected = []
    try:
        yield _collected
    finally:
        _collected = None
