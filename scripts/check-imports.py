#!/usr/bin/env python3
"""Every module a target imports is declared in Package.swift, and every declared dependency is imported.

Reads Package.swift as text (no `swift package dump-package`: that takes the build directory's lock, which a
running `swift test` holds) and each target's Swift sources. Prints one line per mismatch and exits 1 if
there is any; `PackageManifestTests` runs it.

Also refuses an import against ARCHITECTURE.md's direction (FORBIDDEN: Library does not import Playback).

Allowed without an import: the toolchain's modules (Foundation, Glibc, …); a `*Loader` C target whose
header module is imported (FFmpegLoader defines the functions CFFmpeg declares); an executable target a
test target depends on (so that `swift build --build-tests` builds the binary the tests run).
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationXML", "FoundationNetworking", "Glibc", "Musl",
             "Darwin", "Dispatch", "Synchronization", "Testing", "XCTest", "_Concurrency", "os", "Android"}
# Dependencies point one way (ARCHITECTURE.md): modules a target must not import, even if declared.
FORBIDDEN = {
    "MediaModel": {"MediaIndex", "MediaProbe", "MediaScanner", "Library", "Playback", "Playlists"},
    "MediaIndex": {"SQLiteStore", "PostgresStore", "MediaScanner", "Library", "Playback"},
    "Playback": {"MediaIndex", "SQLiteStore", "PostgresStore", "MediaScanner", "Library"},
    "Library": {"Playback", "MPDServer", "SubsonicServer", "MediaWatch"},
}
LOADERS = {"FFmpegLoader": "CFFmpeg", "PulseLoader": "CPulse", "ChromaprintLoader": "CChromaprint"}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|internal\s+|package\s+|private\s+|fileprivate\s+)?"
                    r"import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)",
                    re.M)


def strip_comments(text, keep_strings=True):
    """Swift source or manifest without // and /* */ comments, and without string literals unless `keep_strings`
    (a test's embedded Python says `import json`)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            if keep_strings:
                out.append(text[i:j])
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if keep_strings:
                out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def balanced(text, start, open_ch, close_ch):
    """The text from `start` (an `open_ch`) to its matching `close_ch`, strings skipped."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1)
        elif c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    raise ValueError("unbalanced manifest")


def targets(manifest):
    """(kind, name, path or None, [dependency module names]) for each target in the manifest."""
    text = strip_comments(manifest)
    end = 0
    for m in re.finditer(r"\.(target|executableTarget|testTarget|systemLibrary)\(", text):
        if m.start() < end:
            continue  # `.target(name:condition:)` inside a dependency list
        call = balanced(text, m.end() - 1, "(", ")")
        end = m.start() + len(call)
        name = re.search(r'name:\s*"([^"]+)"', call).group(1)
        path = re.search(r'\bpath:\s*"([^"]+)"', call)
        deps = []
        d = re.search(r"\bdependencies:\s*\[", call)
        if d:
            body = balanced(call, d.end() - 1, "[", "]")
            body = re.sub(r'package:\s*"[^"]*"', "", body)
            body = re.sub(r"condition:\s*\.when\([^)]*\)", "", body)
            deps = re.findall(r'"([^"]+)"', body)
        yield m.group(1), name, path.group(1) if path else None, deps


def imports(directory):
    """The modules the Swift files under `directory` import, or None if it has no Swift file (a C target)."""
    found, swift = set(), False
    for base, _, files in os.walk(directory):
        for f in files:
            if f.endswith(".swift"):
                swift = True
                with open(os.path.join(base, f), encoding="utf-8") as fh:
                    found.update(IMPORT.findall(strip_comments(fh.read(), keep_strings=False)))
    return found if swift else None


def main():
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as fh:
        all_targets = list(targets(fh.read()))
    executables = {name for kind, name, _, _ in all_targets if kind == "executableTarget"}
    problems = []
    for kind, name, path, deps in all_targets:
        if kind == "systemLibrary":
            continue
        directory = os.path.join(ROOT, path or ("Tests" if kind == "testTarget" else "Sources"), "" if path else name)
        used = imports(directory)
        if used is None:
            continue
        used -= TOOLCHAIN | {name}
        declared = set(deps)
        for module in sorted(used & FORBIDDEN.get(name, set())):
            problems.append(f"{name}: imports {module}, against the dependency direction of ARCHITECTURE.md")
        for module in sorted(used - declared):
            problems.append(f"{name}: imports {module}, which Package.swift does not list in its dependencies")
        for module in sorted(declared - used):
            if LOADERS.get(module) in used:
                continue
            if kind == "testTarget" and module in executables:
                continue
            problems.append(f"{name}: depends on {module}, which none of its files imports")
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
