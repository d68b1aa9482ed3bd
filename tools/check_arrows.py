#!/usr/bin/env python3
"""The arrows between a Swift target's rooms run one way: checked by the compiler.

docs/layout.md holds, for each checked target, a table of its rooms between the markers
`<!-- arrows: TARGET -->` and `<!-- /arrows -->`:

    | room | holds | may use |
    |---|---|---|
    | `Geometry/` | … | — |
    | `Buffers/` · `FrameOCRError.swift` · `Bridge/Shim.swift` | … | Geometry |

The first cell names the room's folders (a trailing `/`) and single files, relative to the
target's folder, separated by `·`; the room's name is the first one's (without `/` or
`.swift`). A file belongs to the room of its longest matching folder, or to the room that names
it. "may use" lists the rooms below it that its code may name (`—`: none); a room may use
what those rooms may use, transitively.

For every room R the target's files of R and of every room R may use are type-checked alone,
as the module itself, with the target's own compiler flags (from SwiftPM's build manifest:
`$FRAMEOCR_BUILD_MANIFEST`, which `make arrows` sets to its test build's
`.build/test/release.yaml`, else `.build/debug.yaml`; so build the target first). A name from a
room R may not use is not in that compilation, so it fails to resolve: every arrow against the
table fails the check, whether it is a type, a function, an extension's member or a conformance.
A file no row claims fails it too.

    tools/check_arrows.py TARGET [--layout docs/layout.md] [--jobs 2]
    tools/check_arrows.py TARGET --plant    # the self-test: plants wrong arrows, expects failures

Exit status: 0 when every room type-checks alone; 1 when one does not (its errors are printed,
with the rooms that declare the missing names where they can be found); 2 for a usage or
setup error.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class SetupError(Exception):
    pass


def parse_table(layout, target):
    text = open(layout, encoding="utf-8").read()
    m = re.search(r"<!-- arrows: %s -->(.*?)<!-- /arrows -->" % re.escape(target), text, re.S)
    if not m:
        raise SetupError(f"{layout}: no <!-- arrows: {target} --> table")
    rooms = []  # (name, folders, files, uses)
    for line in m.group(1).splitlines():
        line = line.strip()
        if not line.startswith("|") or line.startswith("|---") or line.startswith("| room"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) < 3:
            raise SetupError(f"{layout}: a row of the {target} table has {len(cells)} cells: {line}")
        paths = [p.strip().strip("`") for p in cells[0].split("·")]
        folders = [p for p in paths if p.endswith("/")]
        files = [p for p in paths if not p.endswith("/")]
        name = paths[0].rstrip("/")
        if name.endswith(".swift"):
            name = name[: -len(".swift")]
        uses = [] if cells[-1] in ("—", "-", "") else [u.strip().strip("`").rstrip("/") for u in cells[-1].split(",")]
        rooms.append((name, folders, files, uses))
    if not rooms:
        raise SetupError(f"{layout}: the {target} table has no rows")
    names = {r[0] for r in rooms}
    for name, _, _, uses in rooms:
        for u in uses:
            if u not in names:
                raise SetupError(f"{layout}: room {name} may use {u}, which is no room of the table")
    return rooms


def closure(rooms):
    direct = {name: set(uses) for name, _, _, uses in rooms}
    result = {}
    for name in direct:
        seen, todo = set(), [name]
        while todo:
            r = todo.pop()
            if r in seen:
                continue
            seen.add(r)
            todo.extend(direct[r])
        result[name] = seen
    # A cycle in the table itself is a mistake in the table.
    for name in direct:
        for u in direct[name]:
            if name in result[u]:
                raise SetupError(f"the table's arrows form a cycle: {name} and {u} may use each other")
    return result


def assign(rooms, source_dir):
    files = []
    for dirpath, dirnames, filenames in os.walk(source_dir):
        dirnames[:] = [d for d in dirnames if not d.endswith(".docc")]
        for f in filenames:
            if f.endswith(".swift"):
                files.append(os.path.relpath(os.path.join(dirpath, f), source_dir))
    owner, unclaimed = {}, []
    for f in sorted(files):
        named = [r[0] for r in rooms if f in r[2]]
        if len(named) > 1:
            raise SetupError(f"{f} is named by rooms {named}")
        if named:
            owner[f] = named[0]
            continue
        best, best_len = None, -1
        for name, folders, _, _ in rooms:
            for d in folders:
                if f.startswith(d) and len(d) > best_len:
                    best, best_len = name, len(d)
        if best is None:
            unclaimed.append(f)
        else:
            owner[f] = best
    for name, _, named_files, _ in rooms:
        for f in named_files:
            if f not in owner:
                raise SetupError(f"room {name} names {f}, which does not exist")
    return owner, unclaimed


def compiler_flags(target):
    """swiftc and the flags SwiftPM compiles `target` with, from its build manifest: the debug
    build's (.build/debug.yaml), or $FRAMEOCR_BUILD_MANIFEST's (the Makefile gives its test build's,
    .build/test/release.yaml, which CI builds anyway)."""
    manifest = os.environ.get("FRAMEOCR_BUILD_MANIFEST") or os.path.join(ROOT, ".build", "debug.yaml")
    if not os.path.exists(manifest):
        raise SetupError(f"no {manifest}: build first (swift build --target {target})")
    text = open(manifest, encoding="utf-8").read()
    m = re.search(r'"C\.%s-[^"]*-(?:debug|release)\.module":\s*\n(.*?)\n  "' % re.escape(target), text, re.S)
    if not m:
        raise SetupError(f"{manifest} has no compile command for {target}: swift build --target {target}")
    args_line = re.search(r"^\s*args: (\[.*\])\s*$", m.group(1), re.M)
    if not args_line:
        raise SetupError(f"{manifest}: no args for {target}")
    args = json.loads(args_line.group(1))
    with_value = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path"}
    dropped = {
        "-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode",
        "-serialize-diagnostics", "-parseable-output", "-emit-objc-header",
    }
    flags, it = [], iter(args[1:])
    for a in it:
        if a in with_value:
            next(it)
        elif a in dropped or a.startswith("@") or a.endswith(".swift") or re.fullmatch(r"-j\d+", a):
            continue
        else:
            flags.append(a)
    return args[0], flags


DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|open|static|"
    r"nonisolated|indirect|mutating|override|convenience|required)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias|func|var|let|case)\s+`?(\w+)", re.M)


def declarers(source_dir, owner):
    """name → rooms whose files declare something of that name (a guide for the report)."""
    found = {}
    for f, room in owner.items():
        for m in DECLARATION.finditer(open(os.path.join(source_dir, f), encoding="utf-8").read()):
            found.setdefault(m.group(1), set()).add(room)
    return found


def typecheck(swiftc, flags, paths):
    # One frontend for the whole set (-wmo): five times faster than a frontend per file.
    r = subprocess.run([swiftc, "-typecheck", "-wmo", *flags, *paths], capture_output=True, text=True)
    return r.returncode, r.stderr


MISSING = re.compile(r"(?:cannot find (?:type )?'(\w+)' in scope|has no member '(\w+)'|"
                     r"cannot find '(\w+)' in scope|no type named '(\w+)')")


def check(target, layout, jobs, extra=None, quiet=False, only=None):
    """Type-checks each room (or the rooms in `only`) alone; `extra`: {room: [more files]}."""
    source_dir = os.path.join(ROOT, "Sources", target)
    rooms = parse_table(layout, target)
    reach = closure(rooms)
    owner, unclaimed = assign(rooms, source_dir)
    if unclaimed:
        for f in unclaimed:
            print(f"{target}: Sources/{target}/{f} is in no room of {os.path.relpath(layout, ROOT)}")
        return 1
    extra = extra or {}
    swiftc, flags = compiler_flags(target)
    names = declarers(source_dir, owner)

    def run(room):
        paths = [os.path.join(source_dir, f) for f, r in owner.items() if r in reach[room]]
        paths += [p for r, ps in extra.items() if r in reach[room] for p in ps]
        return room, *typecheck(swiftc, flags, paths)

    # Each error once, under the room of the file it is in (a planted file: the room it was
    # planted in), whichever room's check found it.
    file_room = {os.path.join(source_dir, f): r for f, r in owner.items()}
    file_room.update({p: r for r, ps in extra.items() for p in ps})
    errors, raw, passed = {}, [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for room, rc, err in pool.map(run, [r[0] for r in rooms if only is None or r[0] in only]):
            if rc == 0:
                passed.append(room)
                continue
            found = False
            for line in err.splitlines():
                if ": error: " not in line:
                    continue
                found = True
                where, message = line.split(": error: ", 1)
                path = where.split(":")[0]
                home = file_room.get(path, room)
                m = MISSING.search(message)
                name = next((g for g in m.groups() if g), None) if m else None
                declared = ""
                if name and name in names:
                    outside = sorted(names[name] - reach[home])
                    if outside:
                        declared = f"  [declared in {', '.join(outside)}]"
                errors.setdefault(home, {})[where.replace(ROOT + "/", "")] = message + declared
            if not found:
                raw.append((room, err))
    if not quiet:
        for room in [r[0] for r in rooms if r[0] in passed]:
            print(f"{target}: {room} uses only {', '.join(sorted(reach[room] - {room})) or 'itself'}")
    for room in [r[0] for r in rooms if r[0] in errors]:
        print(f"{target}: {room} names what it may not use (it may use {', '.join(sorted(reach[room] - {room})) or 'nothing'}):")
        for where, message in sorted(errors[room].items()):
            print(f"  {where}: {message}")
    for room, err in raw:
        print(f"{target}: {room} does not type-check alone:\n{err}")
    return 1 if errors or raw else 0


# Wrong arrows planted by --plant: each is a file added to a low room that names something of a
# room above it; the check must fail on every one.
PLANTS = {
    "type": "func planted{n}() -> Any.Type {{ {symbol}.self }}\n",
    "member": "func planted{n}(_ b: {receiver}) {{ _ = b.{member} }}\n",
}

# What --plant plants, per target: (kind, the room it goes into, the names it uses from above).
PLANT_SPECS = {
    "FrameOCR": [
        ("type", "Geometry", {"symbol": "FrameProcessor"}),
        ("member", "Buffers", {"receiver": "PixelBuffer", "member": "annotated"}),
        ("type", "Recognition", {"symbol": "ReadingPlan"}),
    ],
    "FrameOCRCommandLine": [
        ("type", "Support", {"symbol": "RecognitionOutput"}),
        ("type", "Output", {"symbol": "Server"}),
        ("type", "Serve", {"symbol": "RecognizeCommand"}),
    ],
}


def plant(target, layout, jobs):
    spec = PLANT_SPECS.get(target)
    if spec is None:
        raise SetupError(f"no planted arrows are defined for {target}")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (kind, room, fields) in enumerate(spec):
            path = os.path.join(tmp, f"Planted{n}.swift")
            with open(path, "w") as f:
                f.write(PLANTS[kind].format(n=n, **fields))
            print(f"planted in {room}: {open(path).read().strip()}")
            # The room it is planted in alone: the rooms above see more names, so a plant that
            # room does not catch no room would; the rooms below never see the planted file.
            rc = check(target, layout, jobs, extra={room: [path]}, quiet=True, only=[room])
            if rc == 0:
                print(f"  NOT CAUGHT: the check passed with it planted in {room}")
                failures += 1
            else:
                print("  caught")
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("target")
    p.add_argument("--layout", default=os.path.join(ROOT, "docs", "layout.md"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--plant", action="store_true", help="plant wrong arrows and expect the check to fail")
    a = p.parse_args()
    try:
        if a.plant:
            sys.exit(plant(a.target, a.layout, a.jobs))
        sys.exit(check(a.target, a.layout, a.jobs))
    except SetupError as e:
        print(f"check_arrows: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
