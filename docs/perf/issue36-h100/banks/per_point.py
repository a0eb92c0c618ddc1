# per_point.py [run3-records.tgz]: run3.sh's recorded tunes, every point
# timed by the build before smem 3 (old) and by the build where smem 1
# was laid out by its banks (new: what smem 3 is now). For each problem,
# the points whose layout changed (gen/transpose_smem.c's choice, copied
# below) against those whose did not (the same kernel both times: the
# noise), as new/old time, median and tenth/ninetieth percentiles; and
# by the layout's modelled wavefronts over a unit a row's.
import csv, io, statistics as st, sys, tarfile, collections

def wavefronts(addr):
    seen = collections.defaultdict(set)
    for a in addr:
        seen[a % 32].add(a)
    return max(len(v) for v in seen.values())

def cost(tx, ty, bx, by, vec, pack, s, e):
    row = tx + s * (tx // 32) + e
    at = lambda g, c: g * row + c + s * (c // 32)
    ch, g = vec * pack, ty // pack
    lanes = [(l % bx, l // bx) for l in range(32)]
    put = sum(wavefronts([at(y, (x + j * bx) * ch + k) for x, y in lanes])
              for j in range(tx // (bx * ch)) for k in range(ch))
    col = sum(wavefronts([at((x + j * bx) * vec + k, y) for x, y in lanes])
              for j in range(g // (bx * vec)) for k in range(vec))
    return bx * by // 32 * (put * (g // by) + col * (tx // by))

memo = {}
def layout(tx, ty, bx, by, vec, pack):
    k = (tx, ty, bx, by, vec, pack)
    if k not in memo:
        best = (cost(*k, 0, 1), 1, 0, 1)
        for s in range(5):
            for e in range(1, 5):
                best = min(best, (cost(*k, s, e), s * (tx // 32) + e, s, e))
        memo[k] = (best[2], best[3], best[0] / cost(*k, 0, 1))
    return memo[k]

def q(xs, f):
    return sorted(xs)[int(f * len(xs))]

tar = tarfile.open(sys.argv[1] if len(sys.argv) > 1 else 'run3-records.tgz')
times = collections.defaultdict(dict)
for m in tar.getmembers():
    if not m.name.endswith('.csv'):
        continue
    _, rnd, side, prob = m.name.split('/')[-1].split('-', 3)
    for r in csv.DictReader(io.TextIOWrapper(tar.extractfile(m))):
        if r['status'] != 'ok':
            continue
        d = times[prob].setdefault(r['point'], {'params': r['params'], 'type': r['type']})
        d.setdefault(side, []).append(float(r['median_ms']))
by_red = collections.defaultdict(list)
for prob, pts in sorted(times.items()):
    changed, same = [], []
    for name, d in pts.items():
        if 'old' not in d or 'new' not in d:
            continue
        p = dict(kv.split('=') for kv in d['params'].split())
        ratio = min(d['new']) / min(d['old'])
        e = {'i8': 1, 'u8': 1}.get(d['type'], 2)
        lay = (0, 1, 1.0)
        if p['pack'] == '1' and p['smem'] == '1' and p['kind'] == '0':
            lay = layout(int(p['tile_x']), int(p['tile_y']), int(p['block_x']),
                         int(p['block_y']), int(p['vec']), 4 // e)
        if lay[:2] == (0, 1):
            same.append(ratio)
        else:
            changed.append(ratio)
            by_red[(round(lay[2], 2), lay[:2])].append(ratio)
    print('%-22s changed %3d: new/old median %.3f (%.3f-%.3f) | unchanged %3d: '
          'median %.3f (%.3f-%.3f)' % (prob[:-4], len(changed), st.median(changed),
          q(changed, .1), q(changed, .9), len(same), st.median(same),
          q(same, .1), q(same, .9)))
print('\nby modelled wavefronts (over a unit a row\'s) and layout (cskew, extra):')
for k in sorted(by_red):
    r = by_red[k]
    print('  %.2f %s %3d points: median %.3f (%.3f-%.3f)' % (k[0], k[1], len(r),
          st.median(r), q(r, .1), q(r, .9)))
