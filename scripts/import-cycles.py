#!/usr/bin/env python3
"""Finds Rust files that import each other, directly or in a loop, inside each crate.

A file `a.rs` "imports" module `b` when a line of code (comments and doc comments are
skipped) names `crate::b` (in a `use` or a path), or, inside a module folder, `super::b`.
Test code (a `#[cfg(test)]` item: the `mod tests` block to the end of the file, or one `use`
line) is left out unless `--tests` is given: a unit test may well check a low module through
a higher one. Files are modules: `src/x.rs` and `src/x/mod.rs` are `x`, `src/x/y.rs` is
`x::y`; an import of `crate::x::y` counts as one of `x::y` if that file exists, else of `x`.
The crate root (lib.rs / main.rs) only declares modules and is left out. Prints each cycle
found (as a list of files) and exits 1 if there is any.

    python3 scripts/import-cycles.py [--tests] [crates]
"""
import re
import sys
from pathlib import Path

args = [a for a in sys.argv[1:] if a != "--tests"]
with_tests = "--tests" in sys.argv[1:]
root = Path(args[0] if args else "crates")
found = 0
for crate in sorted(p for p in root.iterdir() if (p / "src").is_dir()):
    src = crate / "src"
    modules = {}
    for f in src.rglob("*.rs"):
        parts = list(f.relative_to(src).with_suffix("").parts)
        if parts[-1] == "mod":
            parts = parts[:-1]
        if parts in (["lib"], ["main"]) or not parts:
            continue
        modules["::".join(parts)] = f

    # Names the crate root re-exports (`pub use layout::{Layout, PieceSet};`) stand for the
    # module they come from.
    reexports = {}
    for root_file in (src / "lib.rs", src / "main.rs"):
        if root_file.exists():
            text = re.sub(r"\s+", " ", root_file.read_text())
            for module, names in re.findall(r"pub use (?:crate::)?(\w+(?:::\w+)*)::\{([^}]*)\};", text):
                for n in names.split(","):
                    reexports[n.strip().split(" as ")[-1]] = module
            for module, name in re.findall(r"pub use (?:crate::)?(\w+(?:::\w+)*)::(\w+);", text):
                reexports[name] = module

    def resolve(path):
        parts = path.split("::")
        if parts[0] in reexports and parts[0] not in modules:
            parts = reexports[parts[0]].split("::") + parts[1:]
        for n in range(len(parts), 0, -1):
            name = "::".join(parts[:n])
            if name in modules:
                return name
        return None

    edges = {m: set() for m in modules}
    for m, f in modules.items():
        here = m.split("::")
        # `super::` is the module above this one: `cli` for `cli/record.rs` (module
        # `cli::record`), the crate root for `cli/mod.rs` (module `cli`).
        parent = here[:-1]
        lines = f.read_text().splitlines()
        skip_next = False
        for i, line in enumerate(lines):
            code = line.split("//", 1)[0]
            if not with_tests:
                if skip_next:
                    skip_next = False
                    if code.lstrip().startswith("mod "):
                        break  # the test module runs to the end of the file
                    continue
                if code.strip() == "#[cfg(test)]":
                    skip_next = True
                    continue
            names = [p for p in re.findall(r"\bcrate::((?:\w+::)*\w+)", code)]
            for sup in re.findall(r"\bsuper::((?:\w+::)*\w+)", code):
                names.append("::".join(parent + [sup]))
            # `use crate::{a, b::c}` groups.
            for group in re.findall(r"\bcrate::\{([^}]*)\}", code):
                names += [g.strip().split("::")[0].split(" as ")[0] for g in group.split(",") if g.strip()]
            for name in names:
                target = resolve(name)
                if target and target != m and not target.startswith(m + "::"):
                    edges[m].add(target)

    # Tarjan's strongly connected components.
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    for comp in out:
        found += 1
        print(f"{crate.name}: " + " <-> ".join(str(modules[m]) for m in sorted(comp)))
    print(f"{crate.name}: {len(modules)} files, {sum(map(len, edges.values()))} imports, {len(out)} cycles")
sys.exit(1 if found else 0)
