#!/usr/bin/env python3
"""The game value of vanishing tic-tac-toe (VA1, VA2) by retrograde analysis,
written without the engine (tests/ai.rs checks `solve` against it).

Positions are (X marks oldest first, O marks oldest first, side to move);
positions a line decided are leaves. A win is counted in plies; a position
no side can force is a draw (the repetition rule then draws it). Prints
"start value: 13": X wins in 13 plies.
"""
from collections import deque
LINES=[(0,1,2),(3,4,5),(6,7,8),(0,3,6),(1,4,7),(2,5,8),(0,4,8),(2,4,6)]
def line(cells): s=set(cells); return any(all(c in s for c in l) for l in LINES)
def moves(p):
    x,o,t=p
    own,opp=(x,o) if t==0 else (o,x)
    occ=set(x)|set(o)
    for c in range(9):
        if c in occ: continue
        q=own+(c,)
        if len(q)>3: q=q[1:]
        won=line(q)
        np=((q,o,1) if t==0 else (x,q,0))
        yield np,won
start=((),(),0)
# enumerate
seen={start:None}; order=[start]; dq=deque([start]); succ={}
while dq:
    p=dq.popleft(); lst=[]
    for np,won in moves(p):
        lst.append((np,won))
        if not won and np not in seen: seen[np]=None; dq.append(np)
    succ[p]=lst
N=len(seen); print("undecided positions:",N)
# value from side to move's view: +n win in n plies, -n loss in n
val={}; pred={p:[] for p in succ}; left={}
for p,lst in succ.items():
    left[p]=0
    for np,won in lst:
        if not won: pred[np].append(p); left[p]+=1
q=deque()
for p,lst in succ.items():
    if any(w for _,w in lst): val[p]=1; q.append(p)
    elif not lst: val[p]=0
while q:
    p=q.popleft(); v=val[p]
    for pp in pred[p]:
        if pp in val: continue
        if v<0: val[pp]=-v+1; q.append(pp)
        else:
            left[pp]-=1
            if left[pp]==0:
                # all moves lead to opponent wins: loss, longest
                best=max(val[np] for np,w in succ[pp] if not w)
                val[pp]=-(best+1); q.append(pp)
print("start value:",val.get(start,"draw"))
