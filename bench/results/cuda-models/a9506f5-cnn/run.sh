python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
C=build/c3
mkdir -p $OUT/conv
for v in default all all64s4 sm90a default; do
  timeout 100 python -m ldsopt.measure.bench_replay $C/conv/$v --out $OUT/conv/$v-$RANDOM $( [ $v = default ] || echo "--variants ldsopt --no-torch" ) --repetitions 3 --min-time 0.1s > /dev/null 2>&1
done
grep -H -E "^\| conv" $OUT/conv/*/results.md | sed "s#$OUT/conv/##" | cut -c1-170 | tee $OUT/conv_summary.txt
for m in cnn cnn90; do
  mkdir -p $OUT/$m
  timeout 150 python -m ldsopt.measure.program_bench $C/$m --out $OUT/$m --repetitions 3 > $OUT/$m/log.txt 2>&1; grep -E "PASS|FAIL|^- |^\| [0-9]" $OUT/$m/log.txt | cut -c1-220
done
cd $OUT && tar czf all.tgz conv cnn cnn90 && rm -rf conv cnn cnn90 && ls
