#!/bin/bash
# The folded QKV product's cost taken apart (README.md here). From the repository root:
# diag_prepare.sh [OUT] (default build/dg/out) builds, from a copy of ldsopt/ patched here, the
# folded dispatch (qkv_fold.mlir: x @ W' with its row sums and consumer, 512x2304x768 f16) as
# is (fold), without its sums' arithmetic (LDSOPT_DIAG=nosums: the K loop's sums left out, the
# values then wrong), with its consumer's operands prefetched into L1 before the K loop
# (prefetch), and the plain product x @ W + b (qkv_plain.mlir); OUT/NAME-def-*.vmfb, each
# dispatch's benchmark module. `noread` (the sums on a row's first element, no LDS reads) is
# a fourth LDSOPT_DIAG value that call 2 built. Apply lanes.patch or under.patch to the tree
# first for the fold kernels of calls 3 and 5.
set -eu
export PATH=$PWD/.venv/bin:$PATH
copy=$(mktemp -d); cp -r ldsopt "$copy/"
python - "$copy/ldsopt/matmul/row_stats.py" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("""        em = self.em
        if em.ROW_SUMS_LAST:""", """        em = self.em
        import os
        if os.environ.get("LDSOPT_DIAG") == "nosums":
            return step(), partial
        if em.ROW_SUMS_LAST:""")
s = s.replace("""                x = em.or_zero(self._past_tile(row), elems, lambda: em.lds_read("A", buf, row, col, self.v))""",
"""                import os
                if os.environ.get("LDSOPT_DIAG") == "noread":
                    x = self.first[i] if self.first else vector.broadcast(elems, em.k.const(0.0, em.p.elem_type))
                else:
                    x = em.or_zero(self._past_tile(row), elems, lambda: em.lds_read("A", buf, row, col, self.v))""")
open(p, "w").write(s)
o = p.replace("row_stats.py", "output.py"); s = open(o).read()
old = '''        if held > EARLY_READ_BYTES:
            return'''
new = '''        if held > EARLY_READ_BYTES:
            import os
            if os.environ.get("LDSOPT_DIAG") == "prefetch":
                from ldsopt.codegen.kernel import L1Prefetch
                at = Offsets(em, *em.output_origin())
                pre = {}
                for (pos, offsets, width), (dm, dn) in reads.items():
                    pf = pre.setdefault(pos, L1Prefetch(em.epilogue_mem[pos]))
                    idx = em.output_index(at.m(dm), at.n(dn))
                    x = inputs[pos]
                    pf([idx[i] for i in x[1]])
            return'''
assert old in s
s = s.replace(old, new); open(o, "w").write(s)
PY
grep -c LDSOPT_DIAG "$copy/ldsopt/matmul/row_stats.py"
ln -s "$PWD/passes" "$copy/ldsopt/passes" 2>/dev/null || true
here=$(dirname "$0"); out=${1:-build/dg/out}; rm -rf $out; mkdir -p $out
for spec in fold:qkv_fold: prefetch:qkv_fold:prefetch nosums:qkv_fold:nosums plain:qkv_plain: ; do
  IFS=: read -r name prog diag <<< "$spec"
  for t in def; do
    opts=""; [ $t = t128 ] && opts="{tiles=128x128x8x8}"
    pipeline=$(python -c "from ldsopt.run import pipelines; print(pipelines.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds$opts,'))")
    LDSOPT_DIAG=$diag PYTHONPATH="$copy" lds-bench $here/$prog.mlir --target cuda-sm90a --no-torch --pipeline "$pipeline" --prepare "$copy/$name-$t" > $out/$name-$t.log 2>&1 || echo "FAILED $name-$t"
    for f in "$copy/$name-$t"/dispatches/ldsopt/*.vmfb; do cp "$f" "$out/$name-$t-$(basename $f)"; done
  done
done
rm -rf "$copy"
ls $out
