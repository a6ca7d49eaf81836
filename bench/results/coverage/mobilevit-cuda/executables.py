"""The top-level hal.executable ops of a module's text, for prepare_swapped.py and prepare_mixed.py."""
import re


def execs(text):
    """name -> (start, end) of each top-level hal.executable's text."""
    spans = {}
    for m in re.finditer(r"^  hal\.executable private @(\w+) \{\n", text, re.M):
        end = text.index("\n  }\n", m.start()) + len("\n  }\n")
        spans[m.group(1)] = (m.start(), end)
    return spans
