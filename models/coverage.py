"""Coverage of the model suite: how many of each model's dispatches ldsopt lowers, and why
it leaves the others to IREE.

    python models/coverage.py OUT_DIR [--target cuda] [--sizes small,base] [--dtypes f32,f16]

For each model of `suite.py` at each size and element type (the MLP classifier has one of
each), the model goes the way `lds-run` takes it: imported, the ldsopt program pipeline, the
dispatch formation lds-run chooses, IREE's configuration of each dispatch, the ldsopt
pipeline; only compiled to configurations, so no GPU is needed. The coverage is of every
dispatch, convolutions included (IREE names a dispatch after its root: `conv` where it is a
convolution or a pooling window; a 1x1 convolution is `matmul_like`), and how many of the
convolutions ldsopt lowered is counted apart. Writes OUT_DIR/coverage.json and
OUT_DIR/README.md (a table, then under each model each dispatch with the passes that
lowered it or, left to IREE, each pass's reason), stamped with the commit they were made at.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import sys
import tempfile

from ldsopt.cli import output_file
from ldsopt.measure import bench
from ldsopt.run import driver
from ldsopt import target as target_model
from ldsopt.models import suite as SUITE
from ldsopt.measure.program_bench import short



def is_convolution(name: str) -> bool:
    """IREE names a dispatch after its root op: a convolution's or a pooling window's has
    `conv` in it."""
    return "_conv" in name


def model_coverage(path: str, tgt: target_model.KnownTarget, work: str) -> dict:
    """The model's dispatches as lds-run forms and lowers them for `tgt`."""
    program = driver.apply_program_pipeline(driver.read_source(path), driver.PROGRAM_PIPELINE, tgt.name)
    flags = driver.dispatch_flags(program, tgt, work, driver.DEFAULT_PIPELINE)
    _, report = driver.apply_ldsopt(driver.configure(program, tgt, work, flags), driver.DEFAULT_PIPELINE)
    convs = [d for d in report if is_convolution(d["name"])]
    return {"dispatches": report, "dispatch_formation": list(flags), "total": len(report), "convolutions": len(convs),
            "convolutions_lowered": sum(bool(d["passes"]) for d in convs),
            "lowered": sum(bool(d["passes"]) for d in report)}


def models(out: str, sizes: list[str], dtypes: list[str]) -> list[tuple[str, str, str, str]]:
    """(model, size, dtype, .onnx path) of the suite, written into `out`."""
    found = []
    for size in sizes:
        for dtype in dtypes:
            for name, model in SUITE.build(size, dtype).items():
                if name == "mlp_classifier" and (size, dtype) != (sizes[0], dtypes[0]):
                    continue  # one size and type only
                path = os.path.join(out, name + ".onnx")
                SUITE.onnx.save(model, path)
                model_name = name if name == "mlp_classifier" else name.removesuffix(f"_{size}_{dtype}")
                found.append((model_name, "-" if name == "mlp_classifier" else size,
                              "f32" if name == "mlp_classifier" else dtype, path))
    return found


def markdown(report: dict) -> str:
    lines = [f"# ldsopt's coverage of the model suite ({report['target']})", "",
             f"Made at commit {report['commit']}{' (working tree had changes)' if report['dirty'] else ''}, "
             f"{report['date']}, by `python models/coverage.py OUT_DIR --target {report['target']}` (compiled to "
             f"configurations, no GPU). Pipeline `{report['pipeline']}`, program pipeline "
             f"`{report['program_pipeline']}`. Coverage: dispatches lowered by ldsopt out of all, convolutions "
             "(dispatches IREE names `conv`: convolutions and pooling windows) included.",
             "",
             "| model | size | dtype | dispatches | convolutions (lowered) | lowered by ldsopt | coverage |",
             "|---|---|---|---|---|---|---|"]
    for m in report["models"]:
        pct = f"{100 * m['lowered'] / m['total']:.0f}%" if m["total"] else "-"
        lines.append(f"| {m['model']} | {m['size']} | {m['dtype']} | {m['total']} | {m['convolutions']} "
                     f"({m['convolutions_lowered']}) | {m['lowered']} of {m['total']} | {pct} |")
    for m in report["models"]:
        lines += ["", f"## {m['model']} {m['size']} {m['dtype']}: {m['lowered']} of {m['total']}", "",
                  f"Dispatch formation: `{' '.join(m['dispatch_formation'])}`.", ""]
        for d in m["dispatches"]:
            if d["passes"]:
                lines.append(f"- `{short(d['name'])}`: {', '.join(d['passes'])}")
                continue
            lines.append(f"- `{short(d['name'])}`: left to IREE ({d['pipeline']})"
                         + (", a convolution" if is_convolution(d["name"]) else ""))
            lines += [f"  - {p}: {r}" for p, r in d["missed"].items()] or ["  - (no pass gave a reason)"]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--target", default="cuda", choices=["cuda", "lavapipe", "gfx942"])
    ap.add_argument("--sizes", default=",".join(SUITE.SIZES))
    ap.add_argument("--dtypes", default=",".join(SUITE.ELEM))
    args = ap.parse_args(argv)
    tgt = target_model.known(args.target)
    sizes, dtypes = args.sizes.split(","), args.dtypes.split(",")
    if bad := [s for s in sizes if s not in SUITE.SIZES] + [d for d in dtypes if d not in SUITE.ELEM]:
        ap.error(f"unknown size or dtype: {', '.join(bad)}")
    commit, dirty = bench.git_state()
    rows = []
    with tempfile.TemporaryDirectory(prefix="lds-coverage-") as work:
        for model, size, dtype, path in models(work, sizes, dtypes):
            sub = os.path.join(work, f"{model}_{size}_{dtype}")
            os.makedirs(sub)
            try:
                cov = model_coverage(path, tgt, sub)
            except driver.DriverError as e:
                print(f"{path}: error: {e}", file=sys.stderr)
                return 1
            finally:  # a base model's weights are in each of these files again
                os.remove(path)
                shutil.rmtree(sub)
            rows.append({"model": model, "size": size, "dtype": dtype, **cov})
            print(f"{model} {size} {dtype}: ldsopt lowered {cov['lowered']} of {cov['total']} dispatches "
                  f"({cov['convolutions_lowered']} of {cov['convolutions']} convolutions)", flush=True)
    report = {"target": args.target, "commit": commit, "dirty": dirty, "pipeline": driver.DEFAULT_PIPELINE,
              "program_pipeline": driver.PROGRAM_PIPELINE,
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), "models": rows}
    os.makedirs(args.out_dir, exist_ok=True)
    output_file.write_json(os.path.join(args.out_dir, "coverage.json"), report)
    output_file.write(os.path.join(args.out_dir, "README.md"), markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
