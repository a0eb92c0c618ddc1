# Random reductions along rows as randrows.py draws them (64 to 512 MiB,
# rows of 20 to 2000, any type and op), kept where the rows are end to
# end and off the 16-byte vector (cols not a multiple of it): the shapes
# flat points along rows are for. Seed drawn at measurement time.
import math, os, random, sys
seed = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else int.from_bytes(os.urandom(4), "little")
rng = random.Random(seed)
print("# seed", seed, file=sys.stderr)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 6
out = 0
while out < n:
    t = rng.choice(["f32", "f64", "f16", "bf16", "i32"])
    e = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i32": 4}[t]
    op = rng.choice(["sum", "min", "max", "sumsq", "amax"])
    elems = int(2 ** rng.uniform(26, 29)) // e
    cols = int(2 ** rng.uniform(math.log2(20), math.log2(2000)))
    rows = max(1, elems // cols)
    if cols % (16 // e) == 0:
        continue
    print(f"--type {t} --op {op} --axis cols --rows {rows} --cols {cols}")
    out += 1
