# lit configuration for ldsopt's IR tests: `lds-opt ... | filecheck %s`.
import os
import sys

import lit.formats

config.name = "ldsopt"
config.test_format = lit.formats.ShTest(execute_external=False)  # internal shell: gives `not`
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")
config.excludes = ["Inputs", "Output"]
# lit scrubs the environment: forward what finds lds-opt, filecheck and the package, and the
# test run's tool server (test/conftest.py).
for var in ("PATH", "PYTHONPATH", "HOME", "VIRTUAL_ENV", "LDSOPT_TOOL_SERVER"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Under the test run's tool server, filecheck runs in a fork of it too (ldsopt/tools/launch.py):
# the same filecheck, without an interpreter start and its imports for each of some 200 checks.
if "LDSOPT_TOOL_SERVER" in os.environ:
    config.substitutions.append((r"(?<![\w./-])filecheck(?![\w./-])", f"{sys.executable} -m ldsopt.tools.launch filecheck"))
# %iree-opt: the iree-opt of the installed wheel, for tests that compare lds-opt with it.
from ldsopt.run import iree_tools  # noqa: E402

config.substitutions.append(("%iree-opt", iree_tools.tool("iree-opt")))
