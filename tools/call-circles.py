#!/usr/bin/env python3
"""Call circles between source files, read from a build's objects with nm (issue 19's
"no call circle spans folders or six files").

The rule. File A *calls* file B when A uses by name a function B defines (nm type T or W in
B): a direct call, or A taking the function's address (a table in A naming B's function is
A naming B). File A *reads a table of* B when the symbol is data (D, R, B, C, V): a
descriptor, an option table, a row. A registration table that a lower module reads is
inversion of control, not a call by name: parsers/core/registry.c lists each protocol's
descriptor, rules/options/registry.c each option family's table, and the core then reaches
the protocols or options only through the rows' function pointers. So:

  - a circle of calls (a strongly connected group of files in the call graph) may neither
    span folders nor hold more than six files: that is the line, and --check fails on it;
  - a circle that closes only through table reads is reported apart, for information.

A file reached through a table must not also be called back by name across the circle: such
a call is an ordinary edge, and the circle is then one of calls.

Objects: every CMake object of the build (<build>/<dir>/CMakeFiles/<target>.dir/<path>.o),
except tests, fuzzers and benchmarks; a file is named by its source path.

Usage: tools/call-circles.py [--build DIR] [--check] [--verbose]
  --build DIR  the build directory (default: $OSPREY_BUILD or build/)
  --check      exit 1 when a call circle spans folders or holds more than six files
  --verbose    print each circle's edges (the symbols that close it)
"""
import argparse
import collections
import os
import signal
import subprocess
import sys

MAX_FILES = 6
CALL_TYPES = set('TW')        # functions (W: a weak function)
TABLE_TYPES = set('DRBCV')    # data: tables, descriptors, rows


def objects(build):
    """(object path, source path, target) of every production object under build."""
    out = []
    for dirpath, _, names in os.walk(build):
        for n in names:
            if not n.endswith('.o'):
                continue
            o = os.path.join(dirpath, n)
            rel = os.path.relpath(o, build)
            if '.dir/' not in rel or '/tests/' in rel or n.startswith('test_') \
                    or 'fuzz' in rel or rel.startswith('bench/'):
                continue
            lib, rest = rel.split('/CMakeFiles/', 1)
            target, path = rest.split('.dir/', 1)
            out.append((o, os.path.normpath(os.path.join(lib, path[:-2])), target))
    return sorted(out)


def elf_nm(sample):
    """nm reading the machine code's symbols: objects built with OSPREY_LTO also carry GCC's IR,
    which nm reads instead when its LTO plugin is installed, unless told the object format
    (objdump's, of a sample object)."""
    if not sample:
        return ['nm']
    out = subprocess.run(['objdump', '-f', sample], capture_output=True, text=True).stdout
    fmt = next((l.split('file format')[1].strip() for l in out.splitlines()
                if 'file format' in l), None)
    return ['nm', f'--target={fmt}'] if fmt else ['nm']


def graphs(objs):
    """The call graph and the table graph: {file: {file: [symbols]}}."""
    defs = collections.defaultdict(list)   # symbol -> [(file, target, type)]
    uses = collections.defaultdict(set)    # (file, target) -> symbols
    of = {o: (src, target) for o, src, target in objs}
    # one nm for all (-A: each line starts with "object:"), of the machine code's names
    text = subprocess.run([*elf_nm(next(iter(of), None)), '-A', *of], capture_output=True,
                          text=True, check=True).stdout
    for line in text.splitlines():
        name, _, rest = line.partition(':')   # (a build path with ':' is not supported)
        src, target = of[name]
        parts = rest.split()
        if len(parts) == 3 and parts[1] in CALL_TYPES | TABLE_TYPES:
            defs[parts[2]].append((src, target, parts[1]))
        elif len(parts) == 2 and parts[0] == 'U':
            uses[(src, target)].add(parts[1])
    calls = collections.defaultdict(dict)
    tables = collections.defaultdict(dict)
    for (src, target), syms in uses.items():
        for s in syms:
            ds = defs.get(s, [])
            # a name defined twice (main): the definition of the same program, if any
            same = [d for d in ds if d[1] == target]
            for d, _, t in same or ds:
                if d == src:
                    continue
                g = calls if t in CALL_TYPES else tables
                g[src].setdefault(d, []).append(s)
    return calls, tables


def circles(g):
    """Strongly connected groups of two files or more (Tarjan, iterative)."""
    nodes = sorted(set(g) | {d for v in g.values() for d in v})
    index, low, stack, on, res, n = {}, {}, [], set(), [], 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(g.get(root, {}))))]
        index[root] = low[root] = n; n += 1; stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n; n += 1; stack.append(w); on.add(w)
                    work.append((w, iter(sorted(g.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    res.append(sorted(comp))
    return sorted(res, key=lambda c: (-len(c), c))


def too_big(comp):
    return len({os.path.dirname(f) for f in comp}) > 1 or len(comp) > MAX_FILES


def show(comp, g, verbose):
    folders = sorted({os.path.dirname(f) for f in comp})
    print(f'  {len(comp)} files in {", ".join(folders)}: {" ".join(comp)}')
    if verbose:
        members = set(comp)
        for a in comp:
            for b, syms in sorted(g.get(a, {}).items()):
                if b in members:
                    print(f'      {a} -> {b}: {", ".join(sorted(set(syms)))}')


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--build', default=os.environ.get('OSPREY_BUILD', 'build'))
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--verbose', action='store_true')
    a = ap.parse_args()
    objs = objects(a.build)
    if not objs:
        sys.exit(f'call-circles: no objects under {a.build} (build it first)')
    calls, tables = graphs(objs)
    both = collections.defaultdict(dict)
    for g in (calls, tables):
        for s, ds in g.items():
            for d, syms in ds.items():
                both[s].setdefault(d, []).extend(syms)
    call_circles = circles(calls)
    bad = [c for c in call_circles if too_big(c)]
    call_sets = [set(c) for c in call_circles]
    # circles of the whole graph that the calls alone do not make
    through = [c for c in circles(both) if too_big(c) and set(c) not in call_sets]
    print(f'objects {len(objs)}, call circles {len(call_circles)}, '
          f'spanning folders or over {MAX_FILES} files: {len(bad)}')
    for c in bad:
        show(c, calls, a.verbose)
    print(f'circles through registration tables (informational): {len(through)}')
    for c in through:
        show(c, both, a.verbose)
    if a.check and bad:
        sys.exit(1)


if __name__ == '__main__':
    main()
