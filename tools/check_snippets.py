#!/usr/bin/env python3
"""Every Swift block of the README, docs/ and the DocC catalog compiles against the library.

Each ```swift block becomes the body of its own function in one file (`async throws`, so that
`try` and `await` are allowed; a camera callback that must not suspend is written in the block
as a plain function of its own, as an app would), after the stand-ins of
tools/snippets-prelude.swift: the names the examples take as given (the camera's buffer, a
`recognizer`, a `processor`, `show(_:)` …). `import` lines move to the top. The file is
type-checked as a module that depends on FrameOCR, with the compiler flags SwiftPM gives the
label-scanner example (from the build manifest that check_arrows.compiler_flags reads: `make
snippets` gives its test build's; build first). Names a block
declares shadow the stand-ins.

A block right after the comment `<!-- snippet: manifest -->` is a fragment of a Package.swift's
`Package(…)` arguments: it is type-checked inside `Package(name:, …)` against the toolchain's
PackageDescription.

    tools/check_snippets.py [FILE.md …]      (default: README.md, docs/*.md, the DocC catalog)
    tools/check_snippets.py --plant          (the self-test: a broken and a deprecated block fail)

A deprecation warning fails a block too: an example must not teach what the library warns
against.

Exit status: 0 when every block compiles; 1 when one does not (the compiler's errors, at the
block's own lines in its page); 2 for a setup error.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_arrows  # noqa: E402  (the compiler flags of a target, from SwiftPM's manifest)

ROOT = check_arrows.ROOT
PRELUDE = os.path.join(ROOT, "tools", "snippets-prelude.swift")
BLOCK = re.compile(r"(<!-- snippet: (\w+) -->\s*\n)?```swift\n(.*?)```", re.S)


def pages(args):
    if args:
        return args
    found = ["README.md"] + sorted(glob.glob("docs/*.md"))
    found += sorted(glob.glob("Sources/FrameOCR/FrameOCR.docc/**/*.md", recursive=True))
    return [os.path.join(ROOT, p) for p in found]


def blocks(page):
    text = open(page, encoding="utf-8").read()
    for m in BLOCK.finditer(text):
        first = text[: m.start(3)].count("\n") + 1
        yield m.group(2) or "code", first, m.group(3)


def compile_code(snippets, swiftc, flags):
    """snippets: [(page, first line, code)] → [(page:line, message)]"""
    prelude = open(PRELUDE, encoding="utf-8").read()
    imports, body, origin = set(), [], {}
    out_line = prelude.count("\n") + 1
    lines = []
    for n, (page, first, code) in enumerate(snippets):
        lines.append(f"func snippet{n}() async throws {{")
        out_line += 1
        for i, line in enumerate(code.splitlines()):
            if re.match(r"\s*import \w+\s*$", line):
                imports.add(line.strip())
                line = ""
            origin[out_line] = (page, first + i)
            lines.append("    " + line)
            out_line += 1
        lines.append("}")
        out_line += 1
    header = "".join(sorted(i + "\n" for i in imports if i not in prelude))
    # The imports go after the prelude's own (its first lines), keeping the line numbers.
    source = prelude + "\n".join(lines) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "Snippets.swift")
        with open(path, "w") as f:
            f.write(source)
        r = subprocess.run(
            [swiftc, "-typecheck", "-wmo", *flags, "-module-name", "Snippets", "-parse-as-library", path],
            capture_output=True, text=True)
        if header.strip():
            print(f"check_snippets: the prelude must import what the blocks import: {header.strip()}")
            return [("tools/snippets-prelude.swift", "missing imports")]
        errors = []
        for line in r.stderr.splitlines():
            # Errors, and deprecations: an example must not teach what the library warns against.
            m = re.match(re.escape(path) + r":(\d+):(\d+): (error|warning): (.*)", line)
            if not m or (m.group(3) == "warning" and "deprecated" not in m.group(4)):
                continue
            where = origin.get(int(m.group(1)))
            if where:
                place = f"{where[0] if where[0].startswith('(') else os.path.relpath(where[0], ROOT)}:{where[1]}"
            else:
                place = f"prelude:{m.group(1)}"
            errors.append((place, m.group(4)))
        if r.returncode != 0 and not errors:
            errors.append(("(compiler)", r.stderr.strip()[-2000:]))
        return errors


def compile_manifests(snippets, swiftc):
    manifest_api = os.path.join(os.path.dirname(os.path.dirname(swiftc)), "lib", "swift", "pm", "ManifestAPI")
    errors = []
    for page, first, code in snippets:
        source = "import PackageDescription\nlet package = Package(\n    name: \"Example\",\n" + code + ")\n"
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "Package.swift")
            with open(path, "w") as f:
                f.write(source)
            r = subprocess.run(
                [swiftc, "-typecheck", "-I", manifest_api, "-swift-version", "6", "-package-description-version",
                 "6.0", path], capture_output=True, text=True)
            for line in r.stderr.splitlines():
                m = re.match(re.escape(path) + r":(\d+):(\d+): error: (.*)", line)
                if m:
                    errors.append((f"{os.path.relpath(page, ROOT)}:{first + int(m.group(1)) - 4}", m.group(3)))
            if r.returncode != 0 and not errors:
                errors.append((f"{os.path.relpath(page, ROOT)}:{first}", r.stderr.strip()[-2000:]))
    return errors


def plant(swiftc, flags):
    """The self-test: a block that does not compile, and one that uses a deprecated call, must fail."""
    bad = [("(planted)", 1, "let x: Int = \"text\"\n"),
           ("(planted)", 1, "let p = Pipeline(automatic: AutomaticPreprocessing())\n")]
    caught = 0
    for block in bad:
        errors = compile_code([block], swiftc, flags)
        print(f"planted {block[2].strip()!r}: {'caught' if errors else 'NOT CAUGHT'}")
        caught += bool(errors)
    return 0 if caught == len(bad) else 1


def main():
    try:
        swiftc, flags = check_arrows.compiler_flags("label-scanner-example")
    except check_arrows.SetupError as e:
        print(f"check_snippets: {e}", file=sys.stderr)
        sys.exit(2)
    drop_next = {"-module-name"}
    kept, it = [], iter(flags)
    for a in it:
        if a in drop_next:
            next(it)
        elif a != "-parse-as-library":
            kept.append(a)
    if sys.argv[1:] == ["--plant"]:
        sys.exit(plant(swiftc, kept))
    code, manifests = [], []
    for page in pages(sys.argv[1:]):
        for kind, first, text in blocks(page):
            (manifests if kind == "manifest" else code).append((page, first, text))
    errors = compile_code(code, swiftc, kept) + compile_manifests(manifests, swiftc)
    for place, message in errors:
        print(f"{place}: {message}")
    print(f"check_snippets: {len(code)} Swift blocks and {len(manifests)} manifest fragments, "
          f"{len(errors)} error(s)")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
