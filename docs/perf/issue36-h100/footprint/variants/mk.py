# mk.py SRC DST SHFL NAME=VALUE...: the emitted .cu with the point's #defines set (SHFL 1: the w1 shuffle patched into at_load).
import re,sys
src,dst,shfl=sys.argv[1],sys.argv[2],sys.argv[3]=='1'
vals=dict(a.split('=') for a in sys.argv[4:])
s=open(src).read()
for k,v in vals.items():
    s,n=re.subn(r'^#define %s \d+$'%k,'#define %s %s'%(k,v),s,flags=re.M)
    assert n==1,k
if shfl:
    old="                x[AT_VEC] = in && sh ? AT_LD(wj + AT_VEC) : 0u;\n"
    new="""                /* The word past this lane's: the next lane's first. */
                const int sw = AT_BLOCK_X < 32 ? AT_BLOCK_X : 32;
                const unsigned int nb = __shfl_down_sync(0xffffffffu, x[0], 1, sw);
                const bool nin = tx % sw < sw - 1 &&
                                 at_load_in(i, j, q, tx + 1, ty, rv, cv);
                x[AT_VEC] = nin ? nb : in && sh ? AT_LD(wj + AT_VEC) : 0u;
"""
    assert old in s; s=s.replace(old,new)
open(dst,'w').write(s)
