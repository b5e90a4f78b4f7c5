#!/usr/bin/env python3
"""The house's dependencies point one way (docs/architecture.md, "Who
may call whom"): reads every #include "..." of hashtree/, verity/, cli/
and include/, and fails (exit 1, naming the includes) when folders
include each other round a cycle, or headers do. verity/tree and
verity/fec are one layer in two folders (format writes parity as it
builds the tree; repair verifies with the tree): counted as one.

    layers.py TOP"""
import os
import re
import sys

ONE_LAYER = {"verity/fec": "verity/tree"}


def folder(path):
    d = os.path.dirname(path)
    return ONE_LAYER.get(d, d)


def cycles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    top = sys.argv[1]
    folders, headers = {}, {}
    for root in ("hashtree", "verity", "cli", "include"):
        for dirpath, _, names in os.walk(os.path.join(top, root)):
            for name in names:
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), top)
                for line in open(os.path.join(top, path), errors="replace"):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m:
                        continue
                    dst = m.group(1)
                    if folder(dst) != folder(path):
                        folders.setdefault(folder(path), {}).setdefault(
                            folder(dst), []).append(path + " -> " + dst)
                    if path.endswith(".h"):
                        headers.setdefault(path, {})[dst] = [path + " -> " + dst]
    bad = 0
    for kind, edges in (("folders", folders), ("headers", headers)):
        for comp in cycles(edges):
            bad = 1
            print("a cycle of %s: %s" % (kind, " ".join(comp)))
            for a in comp:
                for b in comp:
                    for why in edges.get(a, {}).get(b, [])[:2]:
                        print("  " + why)
    return bad


if __name__ == "__main__":
    sys.exit(main())
