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
"""

from __future__ import annotations

import dataclasses

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
    entries = {**reasons(func), pass_name: reason}
    func.attributes[MISSED] = ir.ArrayAttr.get(
        [ir.ArrayAttr.get([ir.StringAttr.get(k), ir.StringAttr.get(v)]) for k, v in entries.items()])


def reasons(func: ir.Operation) -> dict[str, str]:
    """{pass name: reason} recorded on a dispatch function, in pipeline order."""
    if MISSED not in func.attributes:
        return {}
    return {ir.StringAttr(pair[0]).value: ir.StringAttr(pair[1]).value
            for pair in map(ir.ArrayAttr, ir.ArrayAttr(func.attributes[MISSED]))}

