#!/usr/bin/env python3
"""Layer check: no dependency runs back up a layer (issue 19), and libmon exports only mon_.

The order is written once, in tools/layers.txt (bottom up; a unit is a folder or a file's
stem, a file belongs to the longest unit its path starts with). Three readings of the tree:

  1. includes: every `#include "…"` of a production source (tests, fuzz targets and examples
     aside) resolved to a file of the tree; an include of a unit of a higher layer fails;
     and an include that crosses top folders must be one the including folder's README
     allows on its "May include:" line (the backticked paths before "Never"/"Not"; a README
     that allows "every layer" is not narrowed);
  2. calls and table reads, from the build's objects with nm (as tools/call-circles.py reads
     them): a file that uses by name a function defined in a higher layer fails; reading a
     higher layer's data (a descriptor) is allowed only to the registration tables
     layers.txt lists (`table PATH`); a sealed unit (`sealed UNIT`: the protocol folders)
     is named by nothing outside its top folder; and the folders of a unit sealed one from
     another (`sealed UNIT/*`: each parsers/<proto>/) are named by nothing outside their own
     folder — no call, no table read (the registration tables' aside), no include of a
     private header (1): a protocol reaches only the core and the shared libraries, the
     units ranked below it;
  3. exports: `nm -g --defined-only` of libmon (the library a user links) shows no name
     without `mon_`.

Usage: tools/layer-check.py [--root DIR] [--build DIR] [--layers FILE] [--check] [--verbose]
  --root DIR    the source tree (default: this repository)
  --build DIR   the build directory for (2) and (3) (default: $OSPREY_BUILD or build/);
                without objects there only (1) runs, and --check fails
  --check       exit 1 when anything runs up a layer, or libmon exports a name without mon_
"""
import argparse
import importlib.util
import os
import re
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP_PARTS = {'tests', 'fuzz', 'examples', 'testing'}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
TOP_NAMES = ('common', 'stack', 'parsers', 'rules', 'outputs', 'engine', 'tools', 'bench')


def load_layers(path):
    """({unit: rank}, {table file}, {sealed unit}, {unit whose folders are sealed apart})."""
    units, tables, sealed, rooms, rank = {}, set(), set(), set(), 0
    with open(path) as fh:
        for line in fh:
            words = line.split('#', 1)[0].split()
            if not words:
                continue
            if words[0] == 'table':
                tables.update(words[1:])
                continue
            if words[0] == 'sealed':
                for w in words[1:]:
                    if w.endswith('/*'):
                        rooms.add(w[:-2].rstrip('/'))
                    else:
                        sealed.add(w.rstrip('/'))
                continue
            for w in words:
                units[w.rstrip('/')] = rank
            rank += 1
    return units, tables, sealed, rooms


def room_of(path, units, rooms):
    """The sealed folder path is in (`sealed UNIT/*`: UNIT/<folder>, when the file belongs
    to UNIT itself and not to a longer unit under it), or None."""
    u = unit_of(path, units)
    if u not in rooms or not path.startswith(u + '/'):
        return None
    rest = path[len(u) + 1:].split('/')
    return f'{u}/{rest[0]}' if len(rest) > 1 else None


def into_room(src, dst, units, rooms, tables, kind):
    """The sealed folder dst is in when src, outside it, may not name it; else None."""
    room = room_of(dst, units, rooms)
    if room is None or src.startswith(room + '/'):
        return None
    if src in tables and kind in ('reads', 'include'):
        return None  # a registration table reads the rows (and declares them)
    return room


def unit_of(path, units):
    """The longest unit path starts with (a folder, or a stem followed by . or _)."""
    best = None
    for u in units:
        if path == u or (path.startswith(u) and path[len(u)] in '/._'):
            if best is None or len(u) > len(best):
                best = u
    return best


def production(path):
    parts = path.split('/')
    return not (SKIP_PARTS & set(parts[:-1])) and not parts[-1].startswith(('test_', 'fuzz_'))


def sources(root):
    """Every .c/.h under the layered top folders, as paths relative to root."""
    out = []
    for top in TOP_NAMES:
        for dirpath, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if not d.startswith(('build', '.'))]
            for n in names:
                if n.endswith(('.c', '.h')):
                    out.append(os.path.relpath(os.path.join(dirpath, n), root))
    return sorted(out)


def resolve(src, inc, root, by_name):
    """The tree file `#include "inc"` in src names, or None (a system or generated header)."""
    p = os.path.normpath(os.path.join(os.path.dirname(src), inc))
    if os.path.isfile(os.path.join(root, p)):
        return p
    cands = [f for f in by_name.get(os.path.basename(inc), []) if f.endswith('/' + inc) or f == inc]
    if len(cands) > 1:  # a short name two folders use: the including folder's own first
        same = [c for c in cands if c.split('/')[0] == src.split('/')[0]]
        cands = same or cands
    return cands[0] if len(cands) == 1 else None


def may_include(root, top):
    """The prefixes a top folder's README allows across folders; None: not narrowed."""
    try:
        text = open(os.path.join(root, top, 'README.md')).read()
    except OSError:
        return None
    m = re.search(r'^May include[^:\n]*:(.*?)(?:\n\s*\n|\Z)', text, re.M | re.S)
    if not m:
        return None
    para = re.split(r'\b(?:Never|Not)\b', m.group(1))[0]
    if 'every layer' in para:
        return None
    allowed = []
    for tok in re.findall(r'`([^`]+)`', para):
        tok = tok.split()[0].rstrip('*').rstrip('/')
        if tok.split('/')[0] in TOP_NAMES:
            allowed.append(tok)
    return allowed


def include_problems(root, units, verbose, rooms=(), tables=()):
    files = sources(root)
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
    problems, edges = [], 0
    allow = {}
    for src in files:
        if not production(src):
            continue
        su = unit_of(src, units)
        if su is None:
            continue
        top = src.split('/')[0]
        if top not in allow:
            allow[top] = may_include(root, top)
        text = open(os.path.join(root, src), errors='replace').read()
        for inc in INCLUDE.findall(text):
            dst = resolve(src, inc, root, by_name)
            if dst is None:
                continue
            du = unit_of(dst, units)
            room = into_room(src, dst, units, rooms, tables, 'include')
            if du is None or (du == su and room is None):
                continue
            edges += 1
            if units[du] > units[su]:
                problems.append(f'  include up: {src} -> {dst} ({su} below {du})')
            elif room is not None:
                problems.append(f'  include into sealed {room}: {src} -> {dst}')
            elif dst.split('/')[0] != top and allow[top] is not None and \
                    not any(dst == a or dst.startswith(a + '/') or
                            (a.endswith('.h') and dst == a) for a in allow[top]):
                problems.append(f'  include not in {top}/README.md "May include": {src} -> {dst}')
            elif verbose:
                print(f'  {src} -> {dst}')
    return edges, problems


def call_circles_module():
    spec = importlib.util.spec_from_file_location('call_circles', os.path.join(HERE, 'call-circles.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def symbol_problems(root, build, units, tables, sealed, rooms=()):
    cc = call_circles_module()
    # an object whose source is gone (a file moved since the build dir was made) is stale
    objs = [o for o in cc.objects(build) if os.path.isfile(os.path.join(root, o[1]))]
    if not objs:
        return None, [f'  no objects under {build} (build it first)']
    calls, reads = cc.graphs(objs)
    problems, edges = [], 0
    for kind, g in (('calls', calls), ('reads', reads)):
        for src, dsts in sorted(g.items()):
            su = unit_of(src, units)
            for dst, syms in sorted(dsts.items()):
                du = unit_of(dst, units)
                if su is None or du is None:
                    continue
                room = into_room(src, dst, units, rooms, tables, kind)
                if su == du and room is None:
                    continue
                edges += 1
                if du in sealed and src.split('/')[0] != dst.split('/')[0]:
                    problems.append(f'  {kind} into sealed {du}: {src} -> {dst}: '
                                    f'{", ".join(sorted(set(syms)))}')
                    continue
                if units[du] > units[su] and not (kind == 'reads' and src in tables):
                    problems.append(f'  {kind} up: {src} -> {dst}: '
                                    f'{", ".join(sorted(set(syms)))} ({su} below {du})')
                elif room is not None:
                    problems.append(f'  {kind} into sealed {room}: {src} -> {dst}: '
                                    f'{", ".join(sorted(set(syms)))}')
    return edges, problems


def export_problems(build):
    for cand in ('lib/libmon.a', 'stack/libmon.a'):
        lib = os.path.join(build, cand)
        if os.path.isfile(lib):
            break
    else:
        return None, [f'  no libmon.a under {build}/lib']
    out = subprocess.run([*call_circles_module().elf_nm(lib), '-g', '--defined-only', lib],
                         capture_output=True, text=True, check=True).stdout
    # (GCC's LTO labels of a file's early debug information, `tcp.c.1a2b3c4d`, are no C names)
    names = sorted({p[2] for p in (l.split() for l in out.splitlines())
                    if len(p) == 3 and not re.search(r'\.c\.[0-9a-f]+$', p[2])})
    bad = [n for n in names if not n.startswith('mon_')]
    return len(names), [f'  libmon exports {n}' for n in bad] + \
        ([] if names else ['  libmon exports no name at all (not the library we think)'])


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--root', default=os.path.dirname(HERE))
    ap.add_argument('--build', default=os.environ.get('OSPREY_BUILD', 'build'))
    ap.add_argument('--layers')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--verbose', action='store_true')
    a = ap.parse_args()
    units, tables, sealed, rooms = load_layers(a.layers or
                                               os.path.join(a.root, 'tools', 'layers.txt'))
    bad = 0
    edges, probs = include_problems(a.root, units, a.verbose, rooms, tables)
    print(f'layers {len(set(units.values()))}, units {len(units)}; '
          f'includes across units {edges}, running up or not allowed: {len(probs)}')
    print('\n'.join(probs)) if probs else None
    bad += len(probs)
    edges, probs = symbol_problems(a.root, a.build, units, tables, sealed, rooms)
    print(f'calls and table reads across units {edges if edges is not None else "?"}, '
          f'running up: {len(probs) if edges is not None else "?"}')
    print('\n'.join(probs)) if probs else None
    bad += len(probs)
    count, probs = export_problems(a.build)
    print(f'libmon exported names {count if count is not None else "?"}, without mon_: '
          f'{len(probs) if count is not None else "?"}')
    print('\n'.join(probs)) if probs else None
    bad += len(probs)
    if a.check and bad:
        sys.exit(1)


if __name__ == '__main__':
    main()
