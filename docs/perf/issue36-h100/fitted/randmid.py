# Random medium-thin problems of 64-256 MiB: a short side of 65 to 480
# whose rounded-up-to-32 value is no power of two (a fitted tile exists),
# either side short, any type whose fitted side fits 2048 bytes, a third
# with padded lds. Lines: TYPE ROWS COLS [--ld-in A --ld-out B]
import os, random, sys
seed = int(sys.argv[2]) if len(sys.argv) > 2 else int.from_bytes(os.urandom(4), "little")
r = random.Random(seed)
print("# seed", seed, file=sys.stderr)
size = {"u8": 1, "i8": 1, "f16": 2, "bf16": 2, "f32": 4, "f64": 8, "c64": 8, "c128": 16, "f32x4": 16}
n = 0
while n < int(sys.argv[1]):
    t = r.choice(list(size))
    e = size[t]
    s = r.randint(65, 480)
    f = (s + 31) // 32 * 32
    if f & (f - 1) == 0 or f * e > 2048:
        continue
    mib = r.uniform(64, 256)
    L = int(mib * 2**20 / (s * e))
    rows, cols = (s, L) if r.random() < 0.5 else (L, s)
    extra = ""
    if r.random() < 1 / 3:
        extra = f" --ld-in {cols + r.randint(1, 64)} --ld-out {rows + r.randint(1, 64)}"
    print(f"{t} {rows} {cols}{extra}")
    n += 1
