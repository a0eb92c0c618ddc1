import csv, glob, re, statistics as st
for f in sorted(glob.glob('/tmp/rec/rec/r*.csv'), key=lambda x:int(re.findall(r'r(\d+)\.csv',x)[0])):
    rows=[r for r in csv.DictReader(open(f)) if r['status']=='ok']
    if not rows: continue
    groups={}
    for r in rows:
        key=re.sub(r'combine=\d','',r['params'])
        c=int(re.findall(r'combine=(\d)',r['params'])[0])
        groups.setdefault(key,{})[c]=float(r['median_ms'])
    ratios=[]; worst=(0,None)
    for k,g in groups.items():
        if 2 in g and (0 in g or 1 in g):
            o=min(v for c,v in g.items() if c!=2)
            ratio=g[2]/o; ratios.append(ratio)
            if ratio>worst[0]: worst=(ratio,k)
    best={c:min([float(r['median_ms']) for r in rows if f'combine={c}' in r['params']] or [float('inf')]) for c in (0,1,2)}
    allbest=min(best.values())
    prob=rows[0]['type']+' '+rows[0]['problem']
    if ratios:
        ratios.sort()
        print(f"{prob[:70]:70s} twins {len(ratios):4d} atomic/other median {st.median(ratios):.3f} p90 {ratios[int(.9*len(ratios))]:.3f} max {ratios[-1]:.3f} >1.02: {sum(r>1.02 for r in ratios)}; best last {best[0]/allbest:.3f} 2pass {best[1]/allbest:.3f} atomic {best[2]/allbest:.3f}")
        print("    worst:", worst[1].strip())
