#!/usr/bin/env python3
"""Checks that declass's modules depend on each other one way.

    scripts/module_deps.py [--graph]

Reads every `.rs` file under `src/`, collects the module paths each one names
(`use crate::…`, `crate::…`, `super::…`, `self::…` and, in the binary, `declass::…`)
outside comments, string literals and `#[cfg(test)]` items, and builds two graphs:

* between the children of each module (the top-level modules of the library, the files
  of one module, the files of the binary's `commands`), where a cycle is an error;
* between the library's top-level modules, where an import that goes against the layers
  listed in `src/lib.rs` (a numbered list of backquoted module names, lowest layer first)
  is an error: a module may use modules of its own layer or of a lower one.

Test code is left out: unit tests may build the whole configuration or any fixture.
Exits 1 naming each cycle and each upward import, 0 when there is none; `--graph`
prints the top-level edges too.
"""

import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
LIBRARY = "declass"
BINARY = "<bin>"
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments_and_strings(text):
    """The code with comments, string and character literals blanked out."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not re.match(r"[A-Za-z0-9_]", text[i - 1:i] or " "):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'", text[i:i + 12]):
            i += re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'", text[i:i + 12]).end()
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def item_end(code, start):
    """Where the item beginning at `start` ends: its `;` or its closing brace."""
    depth = 0
    for i in range(start, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif code[i] == ";" and depth == 0:
            return i + 1
    return len(code)


CFG_TEST = re.compile(r"#\[cfg\(test\)\]")
TEST_PATH = re.compile(r'#\[cfg\(test\)\]\s*#\[path\s*=\s*"([^"]+)"\]\s*(?:pub\s+)?mod\s')


def without_test_items(code):
    """The code without `#[cfg(test)]` items, and the names of test-only child modules."""
    test_children = set()
    while True:
        match = CFG_TEST.search(code)
        if not match:
            return code, test_children
        end = item_end(code, match.end())
        item = code[match.end():end]
        child = re.match(r"\s*((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", item)
        if child and "#[path" not in child.group(1):
            test_children.add(child.group(2))
        code = code[:match.start()] + code[end:]


def expand_use(tree):
    """The paths of a `use` tree: `a::{b, c::{d, e}}` → a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", tree)
    match = re.match(r"^(.*?)\{(.*)\}$", tree)
    if not match:
        return [tree]
    prefix, inner = match.groups()
    parts, depth, current = [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += c == "{"
        depth -= c == "}"
        current += c
    parts.append(current)
    return [path for part in parts if part for path in expand_use(prefix + part)]


def module_of(path):
    """The module path of a source file: src/kb/vocab.rs → (declass, kb, vocab)."""
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "mod":
        parts.pop()
    if parts == ["lib"]:
        return (LIBRARY,)
    if parts == ["main"]:
        return (BINARY,)
    crate = BINARY if parts[0] == "commands" else LIBRARY
    return (crate, *parts)


def referenced(module, code, modules):
    """The known modules `code` (of `module`) names, resolved to the deepest file-module."""
    crate = module[0]
    paths = []
    for use in re.finditer(r"\buse\s+([^;]+);", code):
        paths.extend(expand_use(use.group(1)))
    paths.extend(m.group(0) for m in re.finditer(r"\b(?:crate|super|self|declass)(?:::" + IDENT + r")+", code))
    found = set()
    for path in paths:
        parts = [p for p in path.split("::") if p]
        if not parts:
            continue
        if parts[0] == "crate":
            base, rest = (crate,), parts[1:]
        elif parts[0] == "declass":
            base, rest = (LIBRARY,), parts[1:]
        elif parts[0] in ("super", "self"):
            base = module
            rest = parts
            while rest and rest[0] in ("super", "self"):
                if rest[0] == "super":
                    base = base[:-1]
                rest = rest[1:]
        else:
            continue
        target = base
        for part in rest:
            if target + (part,) in modules:
                target = target + (part,)
            else:
                break
        if target != module and target in modules:
            found.add(target)
    return found


def lib_layers():
    """The layers stated in src/lib.rs: numbered doc lines of backquoted module names."""
    layers = {}
    for line in (SRC / "lib.rs").read_text().splitlines():
        match = re.match(r"^//!\s*(\d+)\.\s+(.*)$", line)
        if match:
            for name in re.findall(r"`(" + IDENT + r")`", match.group(2)):
                layers[name] = int(match.group(1))
    return layers


def cycles(nodes, edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return result


def main():
    show_graph = "--graph" in sys.argv[1:]
    modules = {module_of(p): p for p in sorted(SRC.rglob("*.rs"))}
    test_only = set()
    code_of = {}
    for module, path in modules.items():
        code, test_children = without_test_items(strip_comments_and_strings(path.read_text()))
        code_of[module] = code
        test_only.update(module + (child,) for child in test_children)
        # `#[cfg(test)] #[path = "…"] mod …;`: a test file beside this one.
        for relative in TEST_PATH.findall(path.read_text()):
            test_only.add(module_of(path.parent / relative))
    # Files only compiled for tests (and anything below them) are test code.
    live = {m: p for m, p in modules.items() if not any(m[:len(t)] == t for t in test_only)}
    file_edges = {m: referenced(m, code_of[m], live) for m in live}

    problems = []
    # Cycles among the children of each module.
    by_parent = defaultdict(lambda: defaultdict(set))
    for source, targets in file_edges.items():
        for target in targets:
            if source[0] != target[0]:
                continue
            common = 0
            while common < min(len(source), len(target)) and source[common] == target[common]:
                common += 1
            if common < len(source) and common < len(target):
                parent = source[:common]
                by_parent[parent][source[common]].add((target[common], source, target))
    for parent, edges in sorted(by_parent.items()):
        simple = defaultdict(set)
        for child, links in edges.items():
            simple[child].update(t for t, _, _ in links)
        nodes = set(simple) | {t for ts in simple.values() for t in ts}
        for component in cycles(nodes, simple):
            where = "::".join(parent)
            detail = sorted(
                f"{'::'.join(s[1:])} → {'::'.join(t[1:])}"
                for child in component
                for target, s, t in edges.get(child, ())
                if target in component
            )
            problems.append(f"cycle in {where}: {' ↔ '.join(component)} ({'; '.join(detail)})")

    # Upward imports between the library's top-level modules.
    layers = lib_layers()
    top = sorted({m[1] for m in live if m[0] == LIBRARY and len(m) > 1})
    unlayered = [name for name in top if name not in layers]
    if not layers:
        problems.append("src/lib.rs states no layers (a numbered list of `module` names)")
    for name in unlayered:
        problems.append(f"module `{name}` is in no layer of src/lib.rs")
    top_edges = defaultdict(set)
    for source, targets in file_edges.items():
        for target in targets:
            if source[0] == LIBRARY == target[0] and len(source) > 1 and len(target) > 1:
                if source[1] != target[1]:
                    top_edges[source[1]].add(target[1])
                    low, high = layers.get(source[1]), layers.get(target[1])
                    if low is not None and high is not None and high > low:
                        problems.append(
                            f"upward import: {'::'.join(source[1:])} (layer {low}) uses "
                            f"{'::'.join(target[1:])} (layer {high})"
                        )
    if show_graph:
        for source in sorted(top_edges):
            print(f"{source} → {', '.join(sorted(top_edges[source]))}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"module_deps: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"module_deps: {len(live)} files, no cycle, no upward import")
    return 0


if __name__ == "__main__":
    sys.exit(main())
