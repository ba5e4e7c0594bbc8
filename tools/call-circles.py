#!/usr/bin/env python3
"""Call circles between source files, read from a build's objects with nm (a file that uses a
symbol another defines calls it, or names it in a table): prints every strongly connected
group of files that spans folders or holds more than six files (issue 19's "no call circle
spans folders or six files"). Run from the repository root after building build/.
A report, not a test: the registration tables (parsers/core/registry.c naming each
descriptor, rules/options/registry.c each option table) close circles by design, through
data rather than calls."""
import subprocess, glob, os, sys, collections
objs = [o for o in glob.glob('build/**/*.o', recursive=True) if '.dir/' in o
        and '/tests/' not in o and 'test_' not in os.path.basename(o) and 'fuzz' not in o and '/bench/' not in o and 'CMakeFiles/osprey.dir' not in o and 'tools/' not in o]
defs = {}; undefs = {}
def src(o):
    # build/<lib>/CMakeFiles/<target>.dir/<path>.c.o -> <path>.c under the lib dir
    p = o.split('.dir/',1)[1][:-2]
    lib = o.split('/')[1]
    return os.path.join(lib, p)
for o in objs:
    out = subprocess.run(['nm', o], capture_output=True, text=True).stdout
    s = src(o)
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBR':
            defs.setdefault(parts[2], set()).add(s)
        elif len(parts) == 2 and parts[0] == 'U':
            undefs.setdefault(s, set()).add(parts[1])
g = collections.defaultdict(set)
for s, us in undefs.items():
    for u in us:
        for d in defs.get(u, ()):
            if d != s: g[s].add(d)
# Tarjan SCC
idx = {}; low = {}; st = []; on = set(); res = []; c = [0]
sys.setrecursionlimit(100000)
def sc(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in g.get(v, ()):
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        res.append(comp)
nodes = set(g) | {d for v in g.values() for d in v}
for v in nodes:
    if v not in idx: sc(v)
bad = 0
for comp in res:
    if len(comp) < 2: continue
    folders = {os.path.dirname(f) for f in comp}
    if len(folders) > 1 or len(comp) > 6:
        bad += 1; print(len(comp), sorted(folders), sorted(comp)[:12])
print("objects", len(objs), "cycles spanning folders or >6 files:", bad)
