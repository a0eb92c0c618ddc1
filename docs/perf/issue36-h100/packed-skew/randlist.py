# Random 1- and 2-byte transposes of 64 to 512 MiB, drawn at measurement
# time (the seed printed): type, total bytes, aspect up to 2^12 either way.
import math, os, random, sys
seed = int.from_bytes(os.urandom(4), "little") if len(sys.argv) < 2 else int(sys.argv[1])
rng = random.Random(seed)
print("# seed", seed, file=sys.stderr)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8
for _ in range(n):
    t = rng.choice(["u8", "i8", "f16", "bf16"])
    e = 1 if t in ("u8", "i8") else 2
    elems = int(2 ** rng.uniform(26, 29)) // e
    aspect = 2 ** rng.uniform(-12, 12)
    rows = max(2, int(math.sqrt(elems * aspect)))
    cols = max(2, elems // rows)
    print(f"--type {t} --rows {rows} --cols {cols}")
