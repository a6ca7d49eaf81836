python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
C=build/c7
mkdir -p $OUT/bert90
timeout 330 python -m ldsopt.measure.program_bench $C/bert90 --out $OUT/bert90 --repetitions 2 > $OUT/bert90/log.txt 2>&1; grep -E "PASS|FAIL|^- |^\| [0-9]" $OUT/bert90/log.txt | cut -c1-200
timeout 60 python3 bench/kernel_times.py "$C/bert90/dispatches/ldsopt/*encoder*.vmfb" --out $OUT/bert90/kernel_times.json > $OUT/bert90/kernel_times.txt 2>&1; cat $OUT/bert90/kernel_times.txt
cd $OUT && tar czf bert90.tgz bert90 && rm -rf bert90 && ls
