#!/bin/sh
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export AUTOTUNE_CACHE=$OUT/cache.db
for r in 21703965 21703968; do
  build/autotune transpose --arch auto --type f16 --rows $r --cols 10 -o $OUT/t$r.cu --record $OUT/rec-$r.csv --quiet > $OUT/tune-$r.log 2>&1; echo "rc=$?"
done
rm -f $OUT/cache.db*
