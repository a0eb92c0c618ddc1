# Random reductions of 64 to 512 MiB with rows padded apart (ld > cols):
# half along rows of 200 to 4000 (ld 1 to cols/4 past), half down columns
# of 20 to 512 (ld an eighth to twice past: the one-element flat points'
# shapes). Seed drawn at measurement time unless given.
import math, os, random, sys
seed = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else int.from_bytes(os.urandom(4), "little")
rng = random.Random(seed)
print("# seed", seed, file=sys.stderr)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8
for i in range(n):
    t = rng.choice(["f32", "f64", "f16", "bf16", "i32"])
    e = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i32": 4}[t]
    op = rng.choice(["sum", "min", "max", "sumsq", "amax"])
    elems = int(2 ** rng.uniform(26, 29)) // e
    if i % 2 == 0:
        cols = int(2 ** rng.uniform(math.log2(200), math.log2(4000)))
        ld = cols + rng.randint(1, cols // 4)
        axis = "cols"
    else:
        cols = int(2 ** rng.uniform(math.log2(20), math.log2(512)))
        ld = cols + rng.randint(cols // 8 + 1, 2 * cols)
        axis = "rows"
    rows = max(1, elems // cols)
    print(f"--type {t} --op {op} --axis {axis} --rows {rows} --cols {cols} --ld {ld}")
