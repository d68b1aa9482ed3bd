#!/usr/bin/env python3
"""Runs the Swift Testing suites of a test bundle on workers side by side: `make test`'s runner.

    tools/run_tests.py BUNDLE [--workers N] [--suites REGEX] [--changed [REV]] [--times FILE]
                              [--write-times FILE]
    tools/run_tests.py --self-test     # its packing and --changed on made-up suites

BUNDLE is the test product SwiftPM builds (`.build/test/release/FrameOCRPackageTests.xctest`
for `make test`, `.build/debug/…` for `make check`); it is run directly, not through `swift
test`, because SwiftPM holds a lock on its build folder for the whole run, so that two `swift
test` processes cannot run side by side.

- The suites are listed (`--list-tests` with Swift Testing's event stream, which also names
  each suite's file) and cut into runs of about 5 s: a longer suite alone, shorter ones
  together. Each run is a process of its own that runs its suites one at a time
  (`--no-parallel`, as the tests expect: several bound time, resident memory or the allocations
  of their process), so the fixtures a suite shares are made once per run.
- N workers (default: the number of cores, at most 2) take the runs longest first, each the next
  one when it is done. The suites run mostly on one core each, so two workers keep a 2-core
  machine busy; more would only slow the tests that bound time.
- The lengths are each suite's seconds in the last run of that bundle here (`test-times.tsv`
  beside it, written after every run), else in the committed table (`Tests/test-times.tsv`, rewritten with
  `--write-times Tests/test-times.tsv`), else 2 s.
- `--suites REGEX`: only the suites whose ID (`Module.Type`) it matches (`make sanitize-thread`).
- `--changed [REV]`: only the suites for what changed since REV (default: the working tree's
  changes against HEAD, or HEAD's own commit when there are none): a changed test file's own
  suites; for a source file, the suites of the test folders named like its room
  (`Sources/FrameOCR/Tracking/…` → `Tests/FrameOCRTests/Tracking/`), or of its whole test target
  when there is no such folder; for a page of docs/ or the DocC catalog, the suites that check
  the docs (`Tests/FrameOCRTests/Docs/`); for a kernel of Kernels/, the suites of the files about
  OpenCL. A change to the shared test support or Package.swift runs everything. `make check`.

Each run's output goes to .build/test-logs/run-NNN.log and is printed when the run ends. The
summary at the end repeats every failed test and every run that failed. Exit status: 0 when every
run passed, 1 when one failed, 2 for a setup error.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMITTED_TIMES = os.path.join(ROOT, "Tests", "test-times.tsv")
LOG_DIR = os.path.join(ROOT, ".build", "test-logs")
DEFAULT_SECONDS = 2.0
CHUNK_SECONDS = 5.0  # the short suites are packed into runs of about this long (one process each)

# A source target → its test target (the folder under Tests/), or the part of one that tests it.
TEST_TARGETS = {
    "FrameOCR": "FrameOCRTests",
    "FrameOCRSynthesis": "FrameOCRTests/Synthesis",
    "CFrameOCR": "CFrameOCRTests",
    "CFrameOCRCommon": "CFrameOCRTests",
    "CFrameOCRMedia": "CFrameOCRTests",
    "FrameOCREvaluation": "FrameOCREvaluationTests",
    "FrameOCRCommandLine": "frameocrTests",
    "CFrameOCRHTTP": "frameocrTests/HTTP",
    "frameocr": "frameocrTests",
}
# Where a change is in code every test uses: all suites run.
SHARED = ("Tests/FrameOCRTestSupport/", "Tests/LiveTestSupport/", "Package.swift")


class SetupError(Exception):
    pass


def events(path):
    """The records of a Swift Testing event stream (JSON Lines) written to `path`."""
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    pass  # a line cut short by a process that died


def list_suites(bundle):
    """{suite ID: (file relative to the checkout, number of tests)} of the bundle."""
    with tempfile.TemporaryDirectory() as tmp:
        stream = os.path.join(tmp, "list.jsonl")
        r = subprocess.run(
            [bundle, "--testing-library", "swift-testing", "--list-tests",
             "--event-stream-output-path", stream, "--event-stream-version", "0"],
            capture_output=True, text=True)
        if r.returncode != 0:
            raise SetupError(f"{bundle} --list-tests exited {r.returncode}: {r.stderr.strip()[:500]}")
        suites = {}
        for record in events(stream):
            test = record.get("payload", {}) if record.get("kind") == "test" else None
            if not test:
                continue
            suite = test["id"].split("/")[0]
            path = test.get("sourceLocation", {}).get("_filePath", "")
            relative = path[path.rindex("/Tests/") + 1:] if "/Tests/" in path else path
            known = suites.get(suite, (relative, 0))
            suites[suite] = (known[0] or relative, known[1] + (test.get("kind") == "function"))
    if not suites:
        raise SetupError(f"{bundle} lists no tests")
    return suites


def read_times(path):
    times = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 2 and not line.startswith("#"):
                try:
                    times[parts[0]] = float(parts[1])
                except ValueError:
                    pass
    return times


def write_times(path, times):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# suite\tseconds: what tools/run_tests.py orders and packs its runs by\n")
        for suite in sorted(times):
            f.write(f"{suite}\t{times[suite]:.2f}\n")


def changed_files(rev):
    def git(*args):
        r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            raise SetupError(f"git {' '.join(args)}: {r.stderr.strip()}")
        return [line for line in r.stdout.splitlines() if line]

    if rev:
        files = git("diff", "--name-only", rev)
    else:
        files = git("diff", "--name-only", "HEAD") + git("ls-files", "--others", "--exclude-standard")
        if not files:
            files = git("diff", "--name-only", "HEAD~1", "HEAD")
    return sorted(set(files))


def suites_for_changes(files, suites):
    """The suites that test what `files` change (see --changed)."""
    by_file = {}
    for suite, (path, _) in suites.items():
        by_file.setdefault(path, []).append(suite)
    chosen = set()

    def under(folder):
        return {s for path, ss in by_file.items() if path.startswith(folder) for s in ss}

    def in_room(target, room):  # Tests/TARGET/ROOM/…, the room's name in any case
        return {
            s for path, ss in by_file.items()
            if path.startswith(f"Tests/{target}/") and path.count("/") > 2 and path.split("/")[2].lower() == room.lower()
            for s in ss
        }

    for f in files:
        if f.startswith(SHARED):
            return set(suites)
        parts = f.split("/")
        if f.startswith("Tests/"):
            chosen |= set(by_file.get(f, []))
        elif f.startswith("docs/") or f == "README.md" or ".docc/" in f:
            chosen |= under("Tests/FrameOCRTests/Docs/")
        elif parts[0] == "Kernels":  # the OpenCL kernels: every suite of a file about OpenCL
            chosen |= {s for path, ss in by_file.items() if "opencl" in path.lower() for s in ss}
        elif parts[0] == "Sources" and len(parts) > 2:
            tests = TEST_TARGETS.get(parts[1])
            if tests is None:
                continue
            # The folder named like the file's room in any test target (Sources/CFrameOCR/fast →
            # Tests/CFrameOCRTests/fast, Sources/CFrameOCRMedia/video → Tests/FrameOCRTests/Video),
            # else the whole test target.
            room = parts[2] if len(parts) > 3 else None
            mirrored = set()
            if room:
                for t in {t.split("/")[0] for t in TEST_TARGETS.values()}:
                    mirrored |= in_room(t, room)
            chosen |= mirrored or under(f"Tests/{tests}" + ("/" if "/" not in tests else ""))
    return chosen


def chunks(suites, times, seconds):
    """The suites in runs of about `seconds` each, longest first: a suite that takes that long
    alone, the shorter ones packed together (each run is one process)."""
    order = sorted(suites, key=lambda s: (-times.get(s, DEFAULT_SECONDS), s))
    runs, current, load = [], [], 0.0
    for suite in order:
        t = times.get(suite, DEFAULT_SECONDS)
        if t >= seconds:
            runs.append(([suite], t))
            continue
        current.append(suite)
        load += t
        if load >= seconds:
            runs.append((current, load))
            current, load = [], 0.0
    if current:
        runs.append((current, load))
    return sorted(runs, key=lambda r: -r[1])


def self_test():
    """The runner's own checks on made-up suites: packing and the choice of suites for changes."""
    times = {"A.Long": 30.0, "A.Mid": 4.0, "A.Small1": 1.0, "A.Small2": 1.5, "B.Tiny": 0.1}
    runs = chunks(times.keys(), times, 5.0)
    assert runs == [(["A.Long"], 30.0), (["A.Mid", "A.Small2"], 5.5), (["A.Small1", "B.Tiny"], 1.1)], runs
    assert chunks(["X.New"], {}, 5.0) == [(["X.New"], DEFAULT_SECONDS)]
    suites = {
        "FrameOCRTests.Track": ("Tests/FrameOCRTests/Tracking/TrackTests.swift", 3),
        "FrameOCRTests.Docs": ("Tests/FrameOCRTests/Docs/DocsTests.swift", 1),
        "FrameOCRTests.Pipe": ("Tests/FrameOCRTests/Preprocessing/PipeTests.swift", 2),
        "CFrameOCRTests.Fast": ("Tests/CFrameOCRTests/fast/FastTests.swift", 2),
        "FrameOCRTests.Video": ("Tests/FrameOCRTests/Video/VideoTests.swift", 2),
        "FrameOCRTests.CLParity": ("Tests/FrameOCRTests/Preprocessing/OpenCLTests.swift", 2),
        "frameocrTests.Serve": ("Tests/frameocrTests/ServeTests.swift", 4),
        "frameocrTests.HTTP": ("Tests/frameocrTests/HTTPServeTests.swift", 4),
    }
    cases = [
        (["Sources/FrameOCR/Tracking/Tracker.swift"], {"FrameOCRTests.Track"}),
        (["Sources/CFrameOCR/fast/fast.cpp"], {"CFrameOCRTests.Fast"}),
        (["Sources/CFrameOCRMedia/video/video.cpp"], {"FrameOCRTests.Video"}),
        (["Sources/FrameOCRCommandLine/Serve/Server.swift"], {"frameocrTests.Serve", "frameocrTests.HTTP"}),
        (["Sources/CFrameOCRHTTP/http.c"], {"frameocrTests.HTTP"}),
        (["Sources/FrameOCR/FrameOCRError.swift"],
         {"FrameOCRTests.Track", "FrameOCRTests.Docs", "FrameOCRTests.Pipe", "FrameOCRTests.Video",
          "FrameOCRTests.CLParity"}),
        (["docs/live.md", "Sources/FrameOCR/FrameOCR.docc/Live.md"], {"FrameOCRTests.Docs"}),
        (["Kernels/gray.cl"], {"FrameOCRTests.CLParity"}),
        (["Tests/frameocrTests/ServeTests.swift"], {"frameocrTests.Serve"}),
        (["Makefile", "tools/run_tests.py"], set()),
        (["Tests/FrameOCRTestSupport/PaddedFrame.swift"], set(suites)),
    ]
    for files, expected in cases:
        got = suites_for_changes(files, suites)
        assert got == expected, f"{files}: {sorted(got)}, expected {sorted(expected)}"
    print(f"run_tests: self-test passed ({len(cases)} changes, 2 packings)")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("bundle", nargs="?")
    p.add_argument("--self-test", action="store_true", help="check the runner's packing and --changed on made-up suites")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--suites", help="only the suites whose ID this regular expression matches")
    p.add_argument("--changed", nargs="?", const="", default=None, metavar="REV",
                   help="only the suites for what changed (since REV; default the working tree's changes)")
    p.add_argument("--times", default=None, help="the seconds per suite to deal by (default: the last run's, else the committed table)")
    p.add_argument("--write-times", metavar="FILE", help="after the run, also write its seconds per suite to FILE")
    a = p.parse_args()
    if a.self_test:
        return self_test()
    if not a.bundle:
        p.error("the test bundle is needed")
    try:
        return run(a)
    except SetupError as e:
        print(f"run_tests: {e}", file=sys.stderr)
        return 2


def run(a):
    bundle = os.path.abspath(a.bundle)
    if not os.access(bundle, os.X_OK):
        raise SetupError(f"no test bundle at {bundle}: build it first (swift build --build-tests)")
    suites = list_suites(bundle)
    selected = set(suites)
    if a.suites:
        selected = {s for s in selected if re.search(a.suites, s)}
    if a.changed is not None:
        files = changed_files(a.changed)
        selected &= suites_for_changes(files, suites)
        print(f"run_tests: {len(files)} changed file(s) → {len(selected)} suite(s)")
        for f in files[:20]:
            print(f"  {f}")
        if len(files) > 20:
            print(f"  … and {len(files) - 20} more")
    if not selected:
        print("run_tests: no suite to run")
        return 0

    # The last run's times are kept beside the bundle: a debug or TSan build's differ from the
    # test build's.
    local_times = os.path.join(os.path.dirname(bundle), "test-times.tsv")
    times = read_times(COMMITTED_TIMES)
    times.update(read_times(a.times or local_times))
    queue = chunks(selected, times, CHUNK_SECONDS)
    workers = max(1, min(a.workers, len(queue)))
    os.makedirs(LOG_DIR, exist_ok=True)
    for old in os.listdir(LOG_DIR):
        os.remove(os.path.join(LOG_DIR, old))
    env = dict(os.environ, NO_COLOR="1")
    total_tests = sum(suites[s][1] for s in selected)
    print(f"run_tests: {total_tests} tests in {len(selected)} suites, {len(queue)} runs on {workers} worker(s), "
          f"about {sum(t for _, t in queue) / workers:.0f} s by the last times; logs in {LOG_DIR}", flush=True)

    lock = threading.Lock()
    measured, failed, results = {}, [], []
    start = time.monotonic()
    next_run = iter(enumerate(queue, 1))

    def worker():
        while True:
            with lock:
                item = next(next_run, None)
            if item is None:
                return
            n, (group, _) = item
            log = os.path.join(LOG_DIR, f"run-{n:03d}.log")
            stream = os.path.join(LOG_DIR, f"run-{n:03d}.jsonl")
            args = [bundle, "--testing-library", "swift-testing", "--no-parallel",
                    "--event-stream-output-path", stream, "--event-stream-version", "0"]
            for suite in sorted(group):
                args += ["--filter", "^" + re.escape(suite) + "(/|$)"]
            t0 = time.monotonic()
            with open(log, "w") as out:
                proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
                # wait4: the run's CPU time, its child processes' (the CLI tests') included.
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = rc = os.waitstatus_to_exitcode(status)
            seconds = time.monotonic() - t0
            cpu = usage.ru_utime + usage.ru_stime
            started, ended = {}, set()
            for e in events(stream):
                payload = e.get("payload", {})
                kind, test = payload.get("kind"), payload.get("testID")
                instant = payload.get("instant", {}).get("absolute")
                if kind == "testStarted" and test in group:
                    started[test] = instant
                elif kind == "testEnded" and test in group and test in started:
                    ended.add(test)
                    measured[test] = instant - started[test]
            text = open(log, encoding="utf-8", errors="replace").read()
            with lock:
                print(f"== run {n}/{len(queue)}: {', '.join(sorted(group))} ({seconds:.1f} s, {cpu:.1f} s CPU, "
                      f"{'passed' if rc == 0 else f'FAILED, exit {rc}'})")
                sys.stdout.write(text)
                sys.stdout.flush()
                failed.extend(line for line in text.splitlines() if line.startswith("✘"))
                results.append((n, group, rc, [s for s in group if s not in ended]))

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start

    times.update(measured)
    write_times(local_times, {s: t for s, t in times.items() if s in suites})
    if a.write_times:
        write_times(a.write_times, {s: times[s] for s in suites if s in times})

    print("\n== run_tests: summary")
    bad = sorted(r for r in results if r[2] != 0)
    for n, group, rc, unfinished in bad:
        print(f"run {n} ({', '.join(sorted(group))}): exit {rc}"
              + (f"; did not end: {', '.join(unfinished)}" if unfinished else ""))
    for line in failed:
        print(line)
    print(f"run_tests: {total_tests} tests in {len(selected)} suites, {len(queue)} runs on {workers} worker(s), "
          f"{elapsed:.0f} s: " + ("FAILED" if bad else "passed"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
