# Here: build/mvtrace/traced.vmfb, MobileViT's ldsopt module (build/mvcuda, prepared at e6e6cae) with
# --iree-flow-trace-dispatch-tensors (empty trace lists removed: IREE prints them unparseable).
import os, json
from ldsopt.run import driver
from ldsopt.cli import output_file
src = "build/mvcuda/mobilevit/ldsopt"
out = "build/mvtrace"
man = json.load(open(f"{src}/manifest.json"))
flags = ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_89", "--iree-flow-inline-constants-max-byte-length=0",
         "--iree-dispatch-creation-enable-aggressive-fusion", "--iree-dispatch-creation-enable-early-trunc-fusion",
         "--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops"]
cfg = os.path.join(out, "configured.mlir")
driver.iree_compile([f"{src}/source.mlir", *flags, "--compile-to=executable-configurations", "-o", cfg,
                     "--iree-flow-trace-dispatch-tensors"], "configure traced", out)
import re
text = re.sub(r'\n *stream\.tensor\.trace "[^"]*" = \[\n\s*\]', "", open(cfg).read())
lowered, report = driver.apply_ldsopt(text, man["pipeline"])
print(sum(1 for d in report if d["passes"]), len(report))
output_file.write(os.path.join(out, "ldsopt.mlir"), lowered)
driver.iree_compile([os.path.join(out, "ldsopt.mlir"), "--compile-from=executable-configurations", "-o",
                     os.path.join(out, "traced.vmfb")], "compile traced", out)
