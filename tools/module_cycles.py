#!/usr/bin/env python3
"""The import circles between the crate's modules: for each group of modules that name each
other round (a strongly connected component of the module graph), its members. A module is a source
file (the library's, or a binary's under src/bin/, whose `crate` is the binary). Every path in
code counts, in `use` lines (nested braces and `as` included) and in expressions, types and
macros (`crate::a::f()`, `super::b::T`, a child module's, or a module a `use` line named): it
names the deepest module file it reaches (a parent's own items count as the parent's). Comments,
literals and test modules do not count. Prints the circles, then one line with their number and
the largest file by lines (generated tables left out). Exits 1 when there is a circle. One crate's
source folder at a time: the library's (src, the default) or the algorithms' (algorithms/src);
between crates Cargo itself forbids a circle.

    python3 tools/module_cycles.py [src] [--explain]   (--explain: each circle's edges, with a path)
"""
import os
import re
import sys

ARGS = [a for a in sys.argv[1:] if a != "--explain"]
EXPLAIN = "--explain" in sys.argv[1:]
ROOT = ARGS[0] if ARGS else "src"
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


def crate_root(module):
    """The root of the crate a module belongs to: the library's (), or a binary's ("bin", name)."""
    return module[:2] if module[:1] == ("bin",) else ()


def resolve(current, path, aliases):
    """The deepest module file `path` names, seen from module `current` where `aliases` maps the
    names its `use` lines bring into scope to modules; None for paths into other crates."""
    parts = [p for p in path.split("::") if p]
    if not parts:
        return None
    if parts[0] == "crate":
        base, rest = list(crate_root(current)), parts[1:]
    elif parts[0] == "datafusion_webtext":
        base, rest = [], parts[1:]
    elif parts[0] in ("super", "self"):
        # a file `a/b.rs` is module a::b; its `super` is `a`. In `a/mod.rs`, `self` is `a`.
        base = list(current)
        while parts and parts[0] in ("super", "self"):
            if parts[0] == "super":
                base = base[:-1]
            parts = parts[1:]
        rest = parts
    elif tuple(current) + (parts[0],) in modules:
        base, rest = list(current), parts
    elif parts[0] in aliases:
        base, rest = list(aliases[parts[0]]), parts[1:]
    else:
        return None
    best, item = (tuple(base), 0) if tuple(base) in modules else (None, 0)
    for i in range(1, len(rest) + 1):
        m = tuple(base + rest[:i])
        if m in modules:
            best, item = m, i
    # An item a module re-exports (`pub use a::Item;`) is a's, not the re-exporting module's.
    seen = set()
    while best is not None and item < len(rest) and (best, rest[item]) in reexports:
        if (best, rest[item]) in seen:
            break
        seen.add((best, rest[item]))
        best = reexports[(best, rest[item])]
    if best is not None and item < len(rest) and (best, rest[item]) in external:
        return None
    return best


def expand(spec):
    """The leaves of one `use` tree, each (path, name in scope):
    a::{b, c::{d as e}} -> (a::b, b), (a::c::d, e)."""
    open_at = spec.find("{")
    if open_at < 0:
        path, _, alias = spec.partition(" as ")
        path = path.removesuffix("::self")
        return [(path, alias or path.split("::")[-1])]
    prefix, inner = spec[:open_at], spec[open_at + 1 : spec.rindex("}")]
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
    return [leaf for i in items if i.strip() for leaf in expand(prefix + i.strip())]


# Comments, string and character literals (lifetimes are left alone).
NOT_CODE = re.compile(
    r"//[^\n]*|/\*.*?\*/|r(#*)\".*?\"\1|b?\"(?:\\.|[^\"\\])*\"|b?'(?:\\.|[^'\\])'", re.S
)
USE = re.compile(r"\buse\s+([^;]+);")
# A path in an expression, a type or a macro: `crate::a::b`, `super::c`, `child::d`, `alias::e`.
PATH = re.compile(r"(?<![\w:])([A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)+)")


# A visibility naming a module (`pub(in crate::a)`): who may use an item, not a use.
VISIBILITY = re.compile(r"\bpub\s*\(\s*in\s+[^)]*\)")


def code_of(text):
    """`text` without its test module, comments, literals and visibilities: only code names
    modules."""
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
    return VISIBILITY.sub("pub", NOT_CODE.sub(" ", text))


INLINE_MOD = re.compile(r"\bmod\s+([a-z_]\w*)\s*\{")


def scopes(code, module):
    """`code` split into (text, the module its paths are seen from): an inline `mod name { … }`
    sees from module::name (its `super` is the file's module)."""
    outside, at = [], 0
    inner = []
    for m in INLINE_MOD.finditer(code):
        if m.start() < at:
            continue
        depth, end = 0, m.end() - 1
        for end in range(m.end() - 1, len(code)):
            depth += {"{": 1, "}": -1}.get(code[end], 0)
            if depth == 0:
                break
        outside.append(code[at : m.start()])
        inner += scopes(code[m.end() : end], module + (m.group(1),))
        at = end + 1
    outside.append(code[at:])
    return [(" ".join(outside), module)] + inner


def use_leaves(code):
    for m in USE.finditer(code):
        spec = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "\0", m.group(1))).replace("\0", " as ")
        yield from expand(spec)


PUB_USE = re.compile(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);")
# (module, name) -> the module a `pub use` of that module brings the name from.
reexports = {}
# (module, name) that a `pub use` brings from another crate (the library's algorithms, say).
external = set()
for module, path in files.items():
    code = code_of(open(path, encoding="utf-8").read())
    for m in PUB_USE.finditer(code):
        spec = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "\0", m.group(1))).replace("\0", " as ")
        for leaf, name in expand(spec):
            target = resolve(module, leaf, {})
            if target is not None and target != module and name != "*":
                reexports[(module, name)] = target
            elif target is None and name != "*":
                external.add((module, name))

edges = {m: set() for m in modules}
# (module, module it names) -> the first path that names it, shown with --explain.
naming = {}
for module, path in files.items():
    targets = []
    for code, scope in scopes(code_of(open(path, encoding="utf-8").read()), module):
        aliases = {}
        for leaf, name in use_leaves(code):
            target = resolve(scope, leaf, {})
            targets.append((target, leaf))
            if target is not None and target[-1:] == (leaf.split("::")[-1],):
                aliases[name] = target
        for p in PATH.findall(USE.sub(" ", code)):
            targets.append((resolve(scope, re.sub(r"\s+", "", p), aliases), p))
    for target, named in targets:
        if target is not None and target != module:
            edges[module].add(target)
            naming.setdefault((module, target), named)

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

def name(module):
    return "::".join(module) or "crate"


for group in sorted(sccs):
    print("circle: " + " <-> ".join(name(m) for m in group))
    if EXPLAIN:
        for a in group:
            for b in sorted(edges[a] & set(group)):
                print(f"    {name(a)} -> {name(b)}: {naming[(a, b)]}")
sizes = [
    (sum(1 for _ in open(p, encoding="utf-8")), os.path.relpath(p, ROOT))
    for p in files.values()
    if not any(g in p for g in GENERATED) and "@generated" not in open(p, encoding="utf-8").readline()
]
lines, largest = max(sizes)
print(f"{len(sccs)} import circle(s) among {len(modules)} modules; largest file: {os.path.join(ROOT, largest)} ({lines} lines)")
sys.exit(1 if sccs else 0)
