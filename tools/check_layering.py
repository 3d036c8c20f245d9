#!/usr/bin/env python3
"""Checks that a module only includes the modules its CMake target declares.

    tools/check_layering.py            check every git-tracked file under src/
    tools/check_layering.py --graph    print the module graph read from CMake

The module graph is read from src/**/CMakeLists.txt: `st_module(NAME SOURCES
... DEPS ... PRIVATE_DEPS ...)` (cmake/modules.cmake), plus `target_sources`,
`target_link_libraries`, `add_executable`, `set(VAR ...)` and `include(x.cmake)`
as far as needed to know each target's sources and direct dependencies.

A file in src/<m>/ that includes "<other>/..." fails the check when <other> is
a module and the target the file belongs to (st_<m>, or an executable that
lists the file) does not name st_<other> directly in its DEPS / PRIVATE_DEPS /
target_link_libraries. Transitive dependencies do not count: the CMake graph
is the truth, and a module must say what it uses. A file that includes another
module's private header (`*_internal.h`, STYLE.md) fails too.

Exit status 0 when clean, 1 with one line per violation, 2 on a usage error.
Python standard library only.
"""

import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(REPO, "src")

COMMAND_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", re.S)
VAR_RE = re.compile(r"\$\{([A-Za-z0-9_]+)\}")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
KEYWORDS = {"PUBLIC", "PRIVATE", "INTERFACE", "STATIC", "SHARED", "OBJECT"}


def strip_comments(text):
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def parse_commands(path, variables):
    """Yields (command, [args]) from a CMake file, following include()."""
    with open(path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    for match in COMMAND_RE.finditer(text):
        name = match.group(1).lower()
        raw = VAR_RE.sub(lambda m: " ".join(variables.get(m.group(1), [])), match.group(2))
        args = [a.strip('"') for a in raw.split()]
        if name == "set" and args:
            variables[args[0]] = args[1:]
        elif name == "include" and args and args[0].endswith(".cmake"):
            yield from parse_commands(os.path.join(os.path.dirname(path), args[0]), variables)
        else:
            yield name, args


class Target:
    def __init__(self, name, module_dir):
        self.name = name
        self.module_dir = module_dir
        self.sources = set()  # paths relative to src/
        self.deps = set()


def read_graph():
    """Returns ({module dir: primary module target}, {target name: Target}).

    A directory may declare more than one module (src/common has st_common
    and st_common_json); its primary one is the first, and a header belongs
    to the module whose SOURCES hold the .cc of the same name, else to the
    primary one."""
    modules, targets = {}, {}
    for root, _, files in os.walk(SRC):
        if "CMakeLists.txt" not in files:
            continue
        module_dir = os.path.relpath(root, SRC)
        variables = {"PROJECT_SOURCE_DIR": [REPO], "CMAKE_CURRENT_SOURCE_DIR": [root]}

        def target(name):
            return targets.setdefault(name, Target(name, module_dir))

        def add_sources(t, names):
            for s in names:
                if s in KEYWORDS:
                    continue
                full = s if os.path.isabs(s) else os.path.join(root, s)
                t.sources.add(os.path.relpath(os.path.normpath(full), SRC))

        for cmd, args in parse_commands(os.path.join(root, "CMakeLists.txt"), variables):
            if cmd == "st_module" and args:
                t = target("st_" + args[0])
                modules.setdefault(module_dir, t)
                section = None
                for a in args[1:]:
                    if a in ("SOURCES", "DEPS", "PRIVATE_DEPS"):
                        section = a
                    elif section == "SOURCES":
                        add_sources(t, [a])
                    elif section:
                        t.deps.add(a)
            elif cmd == "add_executable" and args:
                add_sources(target(args[0]), args[1:])
            elif cmd == "target_sources" and args:
                add_sources(target(args[0]), args[1:])
            elif cmd == "target_link_libraries" and args:
                target(args[0]).deps.update(a for a in args[1:] if a not in KEYWORDS)
    return modules, targets


def module_of(path, modules):
    """The longest module dir that contains `path` (relative to src/), or None."""
    best = None
    for module_dir in modules:
        if path.startswith(module_dir + "/") and (best is None or len(module_dir) > len(best)):
            best = module_dir
    return best


def tracked_sources():
    out = subprocess.run(["git", "-C", REPO, "ls-files", "--", "src/*.h", "src/*.cc"],
                         check=True, capture_output=True, text=True).stdout
    return [os.path.relpath(p, "src") for p in out.split() if os.path.exists(os.path.join(REPO, p))]


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    modules, targets = read_graph()
    if len(argv) > 1 and argv[1] == "--graph":
        for module_dir, t in sorted(modules.items()):
            print(f"{module_dir}: {t.name} -> {' '.join(sorted(d for d in t.deps if d.startswith('st_')))}")
        return 0
    if len(argv) > 1:
        print(f"check_layering.py: unknown argument {argv[1]}", file=sys.stderr)
        return 2

    owners = {}  # file -> target that compiles it, when not the primary module
    for t in targets.values():
        for s in t.sources:
            if t is not modules.get(t.module_dir):
                owners[s] = t
    libraries = {t.name for t in modules.values()} | {
        t.name for t in targets.values() if t.name.startswith("st_") and t.module_dir in modules}

    def provider(included, other_dir):
        """The module target that provides header `included` of src/<other_dir>/."""
        t = owners.get(os.path.splitext(included)[0] + ".cc")
        if t is not None and t.name in libraries:
            return t.name
        return modules[other_dir].name

    violations = []
    files = tracked_sources()
    for path in files:
        own_dir = module_of(path, modules)
        if own_dir is None:
            violations.append(f"src/{path}: not in any module (no st_module in its directory)")
            continue
        t = owners.get(path, modules[own_dir])
        with open(os.path.join(SRC, path), encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                included = m.group(1)
                other_dir = module_of(included, modules)
                if other_dir is None or other_dir == own_dir:
                    continue
                other = provider(included, other_dir)
                where = f"src/{path}:{lineno}"
                if included.endswith("_internal.h"):
                    violations.append(f'{where}: includes "{included}", a private header of '
                                      f"module {other_dir}")
                if other not in t.deps:
                    violations.append(f'{where}: includes "{included}" but {t.name} '
                                      f"(src/{own_dir}/CMakeLists.txt) does not declare {other} "
                                      "in DEPS or PRIVATE_DEPS")
    if violations:
        print("\n".join(violations))
        print(f"check_layering.py: {len(violations)} violation(s) in {len(files)} files; declare "
              "the dependency in CMake if it is legitimate (STYLE.md layering), else remove "
              "the include")
        return 1
    print(f"check_layering.py: {len(files)} files in {len(modules)} modules include only "
          "declared dependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
