"""Hypothesis profiles of the fuzzer, chosen by LDSOPT_FUZZ.

- `ci` (the default): a bounded, reproducible run (derandomized, no example database),
  a few minutes in all; what the test suite runs.
- `long`: thousands of examples with Hypothesis's example database (`.hypothesis/` in the
  working directory), which replays the failures it found first; run before a release:
  `LDSOPT_FUZZ=long .venv/bin/python -m pytest -q test/fuzz --hypothesis-show-statistics`.
"""

import os
import sys

from hypothesis import HealthCheck, settings

# The test modules import the strategy modules beside them (importlib import mode puts no
# test folder on sys.path).
sys.path.insert(0, os.path.dirname(__file__))

_SLOW = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]
settings.register_profile("ci", max_examples=4, deadline=None, derandomize=True, database=None,
                          suppress_health_check=_SLOW, print_blob=True)
settings.register_profile("long", max_examples=3000, deadline=None, suppress_health_check=_SLOW, print_blob=True)
settings.load_profile(os.environ.get("LDSOPT_FUZZ", "ci"))
# A time-boxed run of a profile: LDSOPT_FUZZ_EXAMPLES=200 examples a test.
if os.environ.get("LDSOPT_FUZZ_EXAMPLES"):
    settings.register_profile("sized", max_examples=int(os.environ["LDSOPT_FUZZ_EXAMPLES"]))
    settings.load_profile("sized")
