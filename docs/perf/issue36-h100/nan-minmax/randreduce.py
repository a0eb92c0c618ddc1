# Random reductions cuTENSOR takes, 64 to 512 MiB, drawn at measurement
# time (the seed printed): f32/f64 any of sum, min, max, amax; f16/bf16
# min, max, amax; a third whole arrays, else rows or columns of an aspect
# up to 2^12 either way, a quarter with ld padded by 1 to 64.
import math, os, random, sys
seed = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else int.from_bytes(os.urandom(4), "little")
rng = random.Random(seed)
print("# seed", seed, file=sys.stderr)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8
for _ in range(n):
    t = rng.choice(sys.argv[4].split(",") if len(sys.argv) > 4 else ["f32", "f64", "f16", "bf16"])
    e = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2}[t]
    ops = ["sum", "min", "max", "amax"] if e >= 4 else ["min", "max", "amax"]
    if len(sys.argv) > 3:
        ops = sys.argv[3].split(",")
    op = rng.choice(ops)
    elems = int(2 ** rng.uniform(26, 29)) // e
    axis = rng.choice(["all", "cols", "rows"])
    if axis == "all":
        print(f"--type {t} --op {op} --axis all --n {elems}")
        continue
    aspect = 2 ** rng.uniform(-12, 12)
    rows = max(2, int(math.sqrt(elems * aspect)))
    cols = max(2, elems // rows)
    ld = f" --ld {cols + rng.randint(1, 64)}" if rng.random() < 0.25 else ""
    print(f"--type {t} --op {op} --axis {axis} --rows {rows} --cols {cols}{ld}")
