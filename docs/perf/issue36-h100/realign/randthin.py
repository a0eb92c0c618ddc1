# Random thin narrow problems of 64-256 MiB whose long rows are the output's, off the vector
import os, random, sys
seed = int.from_bytes(os.urandom(4), "little")
r = random.Random(seed)
print("# seed", seed, file=sys.stderr)
out = []
for _ in range(int(sys.argv[1])):
    t = r.choice(["u8", "i8", "f16", "bf16"])
    e = 1 if t in ("u8", "i8") else 2
    s = r.randint(2, 64)
    while True:
        mib = r.uniform(64, 256)
        n = int(mib * 2**20 / (s * e))
        if (n * e) % 16:
            break
    out.append(f"{t}:{n}x{s}")
print(" ".join(out))
