# Random reductions down columns of 64 to 512 MiB, 100 to 5000 rows tall
# (the walks a strip's last step matters to), any cols, ld == cols.
import math, os, random, sys
seed = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else int.from_bytes(os.urandom(4), "little")
rng = random.Random(seed)
print("# seed", seed, file=sys.stderr)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 6
for i in range(n):
    t = rng.choice(["f32", "f64", "f16", "bf16", "i32"])
    e = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i32": 4}[t]
    op = rng.choice(["sum", "min", "max", "sumsq", "amax"])
    elems = int(2 ** rng.uniform(26, 29)) // e
    rows = int(2 ** rng.uniform(math.log2(100), math.log2(5000)))
    cols = max(1, elems // rows)
    print(f"--type {t} --op {op} --axis rows --rows {rows} --cols {cols}")
