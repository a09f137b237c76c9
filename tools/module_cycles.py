#!/usr/bin/env python3
"""The import circles between the crate's modules: for each group of modules that import each
other round (a strongly connected component of the `use` graph), its members. A module is a source
file; `use crate::a::b::Item` and `use super::b::Item` count as an import of the deepest module
file the path names (a parent's own items count as the parent's). Prints the circles, then one
line with their number and the largest file of src/ by lines (generated tables left out).
Exits 1 when there is a circle.

    python3 tools/module_cycles.py [src]
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "src"
GENERATED = ("tables", "generated", "stoplists/data", "entities")


def module_of(path):
    rel = os.path.relpath(path, ROOT)[:-3]
    parts = rel.split(os.sep)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


files = {}
for dirpath, _, names in os.walk(ROOT):
    for name in names:
        if name.endswith(".rs"):
            path = os.path.join(dirpath, name)
            files[module_of(path)] = path
modules = set(files)


def resolve(current, path, is_mod_file):
    parts = [p for p in path.split("::") if p]
    if parts[0] == "crate":
        base, rest = [], parts[1:]
    elif parts[0] in ("super", "self"):
        # a file `a/b.rs` is module a::b; its `super` is `a`. In `a/mod.rs`, `self` is `a`.
        base = list(current)
        while parts and parts[0] in ("super", "self"):
            if parts[0] == "super":
                base = base[:-1]
            parts = parts[1:]
        rest = parts
    else:
        candidate = tuple(current) + (parts[0],)
        if candidate in modules:
            base, rest = list(current), parts
        else:
            return None
    best = tuple(base) if tuple(base) in modules else None
    for i in range(1, len(rest) + 1):
        m = tuple(base + rest[:i])
        if m in modules:
            best = m
    return best


USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M)
edges = {m: set() for m in modules}
for module, path in files.items():
    text = open(path, encoding="utf-8").read()
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
    for m in USE.finditer(text):
        spec = re.sub(r"\s+", "", m.group(1))
        # expand one level of braces: a::{b, c::d} -> a::b, a::c::d
        paths = []
        brace = re.match(r"^(.*?)::\{(.*)\}$", spec)
        if brace:
            prefix, inner = brace.groups()
            depth, item, items = 0, "", []
            for ch in inner:
                if ch == "," and depth == 0:
                    items.append(item)
                    item = ""
                    continue
                depth += ch == "{"
                depth -= ch == "}"
                item += ch
            items.append(item)
            paths = [prefix + "::" + i.split("::{")[0] for i in items if i]
        else:
            paths = [spec]
        for p in paths:
            target = resolve(module, p.split(" as ")[0], path.endswith("mod.rs"))
            if target is not None and target != module:
                edges[module].add(target)

# Tarjan's strongly connected components.
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        group = []
        while True:
            w = stack.pop()
            on.discard(w)
            group.append(w)
            if w == v:
                break
        if len(group) > 1:
            sccs.append(sorted(group))


for v in sorted(modules):
    if v not in index:
        visit(v)

for group in sorted(sccs):
    print("circle: " + " <-> ".join("::".join(m) or "crate" for m in group))
sizes = [
    (sum(1 for _ in open(p, encoding="utf-8")), os.path.relpath(p, ROOT))
    for p in files.values()
    if not any(g in p for g in GENERATED) and "@generated" not in open(p, encoding="utf-8").readline()
]
lines, largest = max(sizes)
print(f"{len(sccs)} import circle(s) among {len(modules)} modules; largest file: src/{largest} ({lines} lines)")
sys.exit(1 if sccs else 0)
