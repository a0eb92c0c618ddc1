#!/bin/sh
# A/B: each problem with OLD then NEW (alternating), empty caches each.
# usage: ab.sh LIST OLD NEW ; LIST lines: TYPE ROWS COLS [extra flags]
LIST=$1 OLD=$2 NEW=$3
T=$(mktemp -d)
export CUDA_CACHE_DISABLE=1
i=0
while read -r t r c extra; do
    [ -z "$t" ] && continue
    i=$((i+1))
    for b in old new; do
        bin=$OLD; [ $b = new ] && bin=$NEW
        d=$T/$i-$b; mkdir -p $d
        AUTOTUNE_CACHE=$d/c.db AUTOTUNE_CUBIN_CACHE=$d/cb.db AUTOTUNE_WORKER="$(readlink -f $bin)" \
          timeout 120 $bin bench transpose --type $t --rows $r --cols $c $extra --csv $d/b.csv > $d/log 2>&1
        pt=$(grep -o "^\[1/1\] [^:]*: [^ ]*" $d/log | awk '{print $NF}')
        fr=$(python3 -c "import csv,sys; rs=[x for x in csv.DictReader(open('$d/b.csv')) if x['kernel']=='tuned']; print('%.1f'%(100*float(rs[0]['frac_copy'])))" 2>/dev/null)
        tt=$(grep -o "tuned in [0-9.]* s" $d/log | head -1)
        echo "$t ${r}x$c $extra | $b | $pt | $fr | $tt" | tee -a $T/table
    done
done < $LIST
echo; echo "=== table"; cat $T/table
[ -n "$KEEP" ] && mkdir -p $KEEP && cp -r $T/* $KEEP/
