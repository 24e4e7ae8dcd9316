"""A numpy-free transcription of ByteTrack's Kalman filter (yolox/tracker/kalman_filter.py: diagonal noise weights 1/20
and 1/160 of the height, per-coordinate covariances), replaying the scenes of ObjectTrackerRefinementTests: the velocity
after OC-SORT's re-update along the virtual path vs after one correction of the drifted prediction.

    python3 Benchmarks/python/kalman_reference.py
"""

wp, wv = 1/20, 1/160
class KF:
    def __init__(s, z):
        h=z[3]; s.m=list(z)+[0,0,0,0]
        pos=[2*wp*h,2*wp*h,1e-2,2*wp*h]; vel=[10*wv*h,10*wv*h,1e-5,10*wv*h]
        s.p00=[p*p for p in pos]; s.p01=[0]*4; s.p11=[v*v for v in vel]
    def predict(s, freeze=False):
        if freeze: s.m[7]=0
        h=s.m[3]; pos=[wp*h,wp*h,1e-2,wp*h]; vel=[wv*h,wv*h,1e-5,wv*h]
        for k in range(4):
            s.m[k]+=s.m[k+4]
            s.p00[k]=s.p00[k]+2*s.p01[k]+s.p11[k]+pos[k]**2
            s.p01[k]=s.p01[k]+s.p11[k]; s.p11[k]=s.p11[k]+vel[k]**2
    def update(s, z):
        h=s.m[3]; noise=[wp*h,wp*h,1e-1,wp*h]
        for k in range(4):
            S=s.p00[k]+noise[k]**2; g0=s.p00[k]/S; g1=s.p01[k]/S; inn=z[k]-s.m[k]
            s.m[k]+=g0*inn; s.m[k+4]+=g1*inn
            a,b,c=s.p00[k],s.p01[k],s.p11[k]
            s.p00[k]=a-a*a/S; s.p01[k]=b-a*b/S; s.p11[k]=c-b*b/S
    def box(s):
        w=s.m[2]*s.m[3]; return (s.m[0]-w/2, s.m[1]-s.m[3]/2, w, s.m[3])
def z(x,y,w,h): return [x+w/2,y+h/2,w/h,h]
import copy
# ORU scenario
seen=[100+6*t for t in range(1,31)]
f=KF(z(seen[0],200,60,120))
for x in seen[1:]: f.predict(); f.update(z(x,200,60,120))
print("v30", f.m[4])
for dx,gap in [(8,4),(4,4),(12,4),(6,3),(10,6)]:
    v=copy.deepcopy(f)
    for st in range(1,gap+1):
        v.predict(); v.update(z(seen[-1]+dx*st/gap,200,60,120))
    d=copy.deepcopy(f)
    for _ in range(gap): d.predict(True)
    pd=d.box()[0]
    d.update(z(seen[-1]+dx,200,60,120))
    print(dx,gap,"virtual v",round(v.m[4],3),"drift v",round(d.m[4],3), "pred offset", pd-(seen[-1]+dx))
# campus test scenario
a=[100+5*t for t in range(1,6)]
g=KF(z(a[0],100,60,120))
for x in a[1:]: g.predict(); g.update(z(x,100,60,120))
for _ in range(15): g.predict(True)
print("A pred f20", g.box(), g.m[4])
