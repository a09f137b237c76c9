#!/usr/bin/env python3
"""Checks tools/module_cycles.py on small crates written for the purpose: each path form it must
see makes a circle it reports, and the forms that are no circle (a re-exported item, a comment, a
string, a test module, another crate's path, a visibility) leave none.

    python3 tools/test_module_cycles.py
"""
import os
import subprocess
import sys
import tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "module_cycles.py")

# name -> (files of src/, the circle the tool must print, or None for none)
CASES = {
    "use lines": (
        {"lib.rs": "mod a;\nmod b;", "a.rs": "use crate::b::g;", "b.rs": "use crate::a::f;"},
        "a <-> b",
    ),
    "nested braces": (
        {"lib.rs": "mod a;\nmod b;", "a.rs": "use crate::{b::{g, h}};", "b.rs": "use crate::{x, a::f as z};"},
        "a <-> b",
    ),
    "a path in an expression": (
        {"lib.rs": "mod a;\nmod b;", "a.rs": "fn f() { crate::b::g() }", "b.rs": "use super::a;\nfn g() { a::f() }"},
        "a <-> b",
    ),
    "a parent's own item": (
        {"lib.rs": "mod a;", "a/mod.rs": "mod b;\npub struct T;\nfn f() { b::g() }", "a/b.rs": "fn g(_: super::T) {}"},
        "a <-> a::b",
    ),
    "a binary's crate": (
        {
            "lib.rs": "",
            "bin/tool/main.rs": "mod x;\nmod y;\npub(crate) struct E;",
            "bin/tool/x.rs": "fn f() -> crate::y::T { todo!() }",
            "bin/tool/y.rs": "fn g() { crate::x::f(); }",
        },
        "bin::tool::x <-> bin::tool::y",
    ),
    "a re-exported item": (
        {"lib.rs": "mod a;", "a/mod.rs": "mod b;\nmod c;\npub use c::T;\nfn f() { b::g() }", "a/b.rs": "use super::T;", "a/c.rs": ""},
        None,
    ),
    "comments, strings, tests and other crates": (
        {
            "lib.rs": "mod a;\nmod b;",
            "a.rs": "use crate::b::g;",
            "b.rs": '// crate::a::f\nconst S: &str = "crate::a::f";\nfn h() { std::a::f(); }\n#[cfg(test)]\nmod tests {\n    use crate::a::f;\n}',
        },
        None,
    ),
    "another crate's module re-exported by the root": (
        {"lib.rs": "mod a;\npub use other::html;\npub use a::f;", "a.rs": "use crate::html::Page;\npub fn f() {}"},
        None,
    ),
    "a visibility naming a parent": (
        {"lib.rs": "mod a;", "a/mod.rs": "mod b;\nfn f() { b::g() }", "a/b.rs": "pub(in crate::a) fn g() {}"},
        None,
    ),
    "an inline module's super": (
        {"lib.rs": "mod a;\nmod b;", "a.rs": "use crate::b::g;\npub fn f() {}\npub mod inner {\n    fn k() { super::f() }\n}", "b.rs": "pub fn g() {}"},
        None,
    ),
}


def run(files):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        done = subprocess.run([sys.executable, TOOL, root], capture_output=True, text=True)
    circles = [l.removeprefix("circle: ") for l in done.stdout.splitlines() if l.startswith("circle: ")]
    return done.returncode, circles


failures = 0
for name, (files, expected) in CASES.items():
    status, circles = run(files)
    wanted = ([expected], 1) if expected else ([], 0)
    if (circles, status) != wanted:
        failures += 1
        print(f"FAIL {name}: circles {circles} (exit {status}), expected {wanted[0]} (exit {wanted[1]})")
print(f"module_cycles.py: {len(CASES) - failures} of {len(CASES)} cases as expected")
sys.exit(1 if failures else 0)
