#!/usr/bin/env python3
"""Where a crate's LLVM IR comes from, by module of our code (docs/performance.md §6, fifth pass).

Every function the crate compiles is given to the module of our code that makes it compiled:
our own functions to their module; generic code (std's, serde_json's) to the module whose
functions reach it through generic code only, in the IR's call graph, or to "shared" when
several modules reach it. With --binary, also what the linked binary does not contain (compiled,
never called by that program: code a consumer's build pays for and never runs).

    # the IR, with names that keep their generic arguments (v0 mangling):
    cargo rustc -p mcp-contract-test --lib -- --emit=llvm-ir -C symbol-mangling-version=v0
    scripts/perf/ir_by_module.py target/debug/deps/mcp_contract_test-*.ll --depth 2
    scripts/perf/ir_by_module.py FILE.ll --detail test::probe::stdio   # what one module makes
    scripts/perf/ir_by_module.py FILE.ll --binary path/to/linked/test/binary
    scripts/perf/ir_by_module.py FILE.ll --impls   # std-trait impls (derived ones) on our types

Lines are the function bodies' lines (debug records included, comments not), so totals are
larger than `cargo llvm-lines`' but move with them. Needs `c++filt` (binutils ≥ 2.36) and `nm`.
"""
import argparse
import collections
import re
import subprocess

OURS = re.compile(r"<?(mcp_contract_(?:engine|test))((?:::[A-Za-z_][A-Za-z0-9_]*)*)")
DEFINE = re.compile(r'^define ([^@]*)@("?)([^"(]+)\2\(')
REFERENCE = re.compile(r'@("?)(_R[0-9A-Za-z_$.]+)\1')


def read_ir(path):
    """Each defined function: its body's line count, its linkage, the symbols it references."""
    lines, linkage, refs = {}, {}, collections.defaultdict(set)
    current = None
    with open(path, errors="replace") as ir:
        for line in ir:
            if current is None:
                match = DEFINE.match(line)
                if match:
                    current = match.group(3)
                    linkage[current], lines[current] = match.group(1), 0
            elif line.startswith("}"):
                current = None
            else:
                if line.strip() and not line.lstrip().startswith(";"):
                    lines[current] += 1
                refs[current].update(m.group(2) for m in REFERENCE.finditer(line))
    return lines, linkage, refs


def demangle(symbols):
    out = subprocess.run(["c++filt"], input="\n".join(symbols), capture_output=True, text=True, check=True)
    return {s: re.sub(r"\[[0-9a-f]+\]", "", d) for s, d in zip(symbols, out.stdout.split("\n"))}


def module_of(name, depth):
    match = OURS.match(name)
    if not match:
        return None
    segments = [s for s in match.group(2).split("::") if s][:depth]
    return match.group(1).replace("mcp_contract_", "") + "::" + "::".join(segments)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ir")
    parser.add_argument("--depth", type=int, default=1, help="module path segments to group by")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--detail", help="list the functions given to modules starting with this")
    parser.add_argument("--binary", help="also count what this linked binary does not contain")
    parser.add_argument("--impls", action="store_true",
                        help="also count impls of std's derivable traits on our types (sixth pass)")
    args = parser.parse_args()

    lines, linkage, refs = read_ir(args.ir)
    names = demangle(list(lines))
    owner = {f: module_of(names[f], args.depth) for f in lines}
    reached_by = collections.defaultdict(set)
    for f, module in owner.items():
        if not module:
            continue
        stack = [g for g in refs[f] if g in lines and not owner[g]]
        seen = set(stack)
        while stack:
            g = stack.pop()
            reached_by[g].add(module)
            for h in refs[g]:
                if h in lines and not owner[h] and h not in seen:
                    seen.add(h)
                    stack.append(h)
    total = sum(lines.values())
    by_module, own = collections.Counter(), collections.Counter()
    detail = collections.Counter()
    shared = unreached = 0
    for f, n in lines.items():
        module = owner[f] or (next(iter(reached_by[f])) if len(reached_by[f]) == 1 else None)
        if module:
            by_module[module] += n
            if owner[f]:
                own[module] += n
            if args.detail and module.startswith(args.detail):
                detail[("own " if owner[f] else "") + names[f][:180]] += n
        elif reached_by[f]:
            shared += n
        else:
            unreached += n
    print(f"{args.ir}: {total} lines; generic code shared by several modules {shared}, "
          f"reached by none of our functions {unreached}")
    print("   lines      %   its own functions  module")
    for module, n in by_module.most_common(args.top):
        print(f"{n:8d} {100 * n / total:5.1f}%  {own[module]:8d}           {module}")
    if args.detail:
        print(f"--- given to {args.detail}*")
        for name, n in detail.most_common(args.top):
            print(f"{n:8d} {name}")
    if args.impls:
        impl = re.compile(r"^<(mcp_contract_\w+(?:::\w+)*) as core::(fmt::Debug|clone::Clone|"
                          r"cmp::PartialEq|cmp::Eq|cmp::PartialOrd|cmp::Ord|hash::Hash|"
                          r"default::Default)>::")
        impls = collections.Counter()
        for f, n in lines.items():
            match = impl.match(names[f])
            if match:
                impls[(match.group(2), match.group(1))] += n
        print(f"--- impls of derivable std traits on our types: {sum(impls.values())} lines")
        for (trait, ty), n in impls.most_common(args.top):
            print(f"{n:8d}  {trait:18s} {ty}")
    if args.binary:
        nm = subprocess.run(["nm", args.binary], capture_output=True, text=True, check=True).stdout
        present = {line.split()[-1] for line in nm.splitlines() if line.strip()}
        absent = collections.Counter()
        for f, n in lines.items():
            if f not in present:
                module = owner[f] or (next(iter(reached_by[f])) if len(reached_by[f]) == 1 else "shared")
                absent[module] += n
        print(f"--- not in {args.binary}: {sum(absent.values())} lines "
              f"({100 * sum(absent.values()) / total:.1f} %)")
        for module, n in absent.most_common(args.top):
            print(f"{n:8d}  {module}")


if __name__ == "__main__":
    main()
