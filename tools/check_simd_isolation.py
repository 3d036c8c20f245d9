#!/usr/bin/env python3
"""Checks that CPU-specific code stays where the runtime dispatch guards it.

    tools/check_simd_isolation.py LIBRARY.a --target-object NAME.o [--target-object ...]

LIBRARY.a is a static library built for baseline x86-64 (st_decoding). A
function containing instructions a baseline CPU lacks (AVX2, BMI, LZCNT,
PCLMULQDQ...) must be named after a simdjson SIMD kernel (haswell, icelake,
westmere): it lives in simdjson::<kernel>:: (simdjson's own target regions,
which every object including <simdjson.h> may emit) or takes a <kernel>
type or names one (our haswell build: JsonWalker<HaswellOndemand>,
MakeHaswellJsonKernel), so only code that already dispatched to that kernel
calls it. Any other function with such instructions fails: an inline function
(std::, generic simdjson::, ours) compiled in a target region is emitted as a
weak COMDAT copy under a name that baseline objects also emit, and the linker
may keep the AVX2 copy for a baseline caller (SIGILL on an old CPU). Each
--target-object must contain such instructions (else its target region did not
take effect and the check proves nothing). In a --target-object, functions
with internal linkage are fine too: only the object's own functions call them,
and its baseline entry points reach the target region only through the
runtime dispatch (MakeHaswellJsonKernel).

`tzcnt` is not counted: GCC emits `rep bsf` (which objdump shows as tzcnt)
for baseline code too, and old CPUs run it as bsf.

Exit status 0 when clean, 1 with one line per violation, 2 on a usage error.
Needs binutils (ar, objdump) only.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# Instructions a baseline x86-64 (SSE2) CPU does not have.
BMI_AND_CO = {
    "andn", "bextr", "blsi", "blsmsk", "blsr", "bzhi", "mulx", "pdep", "pext", "rorx", "sarx",
    "shlx", "shrx", "lzcnt", "popcnt", "pclmulqdq", "movbe", "crc32b", "crc32w", "crc32l",
    "crc32q",
}
SSSE3_SSE4 = re.compile(
    r"^(pshufb|palignr|pmaddubsw|phadd[wd]|phsub[wd]|pabs[bwd]|psign[bwd]|pmulhrsw|ptest|pblend\w*|"
    r"pmov[sz]x\w+|pextr[bdq]|pinsr[bdq]|pmins[bd]|pmaxs[bd]|pminu[wd]|pmaxu[wd]|pmulld|pmuldq|"
    r"packusdw|pcmpeqq|pcmpgtq|pcmp[ei]str[im]|round[ps][sd]|dpp[sd]|blendv?p[sd]|insertps|"
    r"extractps|movntdqa|phminposuw|mpsadbw)$")
FUNC_RE = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSN_RE = re.compile(r"^\s+[0-9a-f]+:\s+(?:(?:rex\.?\w*|lock|rep\w*|notrack|bnd|data16|addr32|"
                     r"cs|ds|ss|es|fs|gs)\s+)*([a-z][a-z0-9.]*)")


def is_target_insn(mnemonic):
    if mnemonic.startswith("v") and mnemonic not in ("verr", "verw"):
        return True  # VEX/EVEX: AVX and later
    return mnemonic in BMI_AND_CO or SSSE3_SSE4.match(mnemonic) is not None


def run(argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout


def target_functions(obj):
    """{mangled function name: first target instruction} for `obj`."""
    found = {}
    current = None
    for line in run(["objdump", "-d", "--no-show-raw-insn", obj]).splitlines():
        m = FUNC_RE.match(line)
        if m:
            current = m.group(1)
            continue
        m = INSN_RE.match(line)
        if m and current is not None and current not in found and is_target_insn(m.group(1)):
            found[current] = m.group(1)
    return found


def bindings(obj):
    """{symbol name: 'l' | 'g' | 'w' | 'u'} from the symbol table."""
    result = {}
    for line in run(["objdump", "-t", obj]).splitlines():
        parts = line.split()
        # value flags... section size name; flags are 7 fixed-width columns.
        if len(parts) < 4 or not re.fullmatch(r"[0-9a-f]{16}", parts[0]):
            continue
        flags = line[17:24]
        name = parts[-1]
        result[name] = "l" if "l" in flags[:1] else ("w" if "w" in flags[1:2] else
                                                      ("u" if "u" in flags[:1] else "g"))
    return result


KERNEL_RE = re.compile(r"haswell|icelake|westmere", re.I)
_BINDINGS = {}


def bindings_of(obj):
    if obj not in _BINDINGS:
        _BINDINGS[obj] = bindings(obj)
    return _BINDINGS[obj]


def demangle(names):
    if not names:
        return {}
    out = run(["c++filt"] + list(names)).splitlines() if names else []
    return dict(zip(names, out))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("library")
    parser.add_argument("--target-object", action="append", default=[], required=True)
    args = parser.parse_args(argv[1:])
    if not os.path.isfile(args.library):
        print(f"{args.library}: not found", file=sys.stderr)
        return 2
    violations = []
    with tempfile.TemporaryDirectory(prefix="simd-isolation-") as tmp:
        members = run(["ar", "t", args.library]).split()
        subprocess.run(["ar", "x", os.path.abspath(args.library)], cwd=tmp, check=True)
        for want in args.target_object:
            if want not in members:
                violations.append(f"{args.library}: no member {want}")
        for member in members:
            obj = os.path.join(tmp, member)
            found = target_functions(obj)
            if member in args.target_object and not found:
                violations.append(f"{member}: no AVX2/BMI instruction at all: the target region "
                                  "did not take effect")
            names = demangle(sorted(found))
            bad = 0
            for sym, insn in sorted(found.items()):
                local = bindings_of(obj).get(sym) == "l"
                if KERNEL_RE.search(names[sym]) or (local and member in args.target_object):
                    continue
                bad += 1
                linkage = "internal" if local else "external"
                violations.append(f"{member}: `{insn}` in {names[sym]} ({linkage} linkage), "
                                  "which is not named after a SIMD kernel")
            if member in args.target_object:
                print(f"{member}: {len(found)} functions with target instructions, "
                      f"{len(found) - bad} internal or named after a kernel")
    if violations:
        print("\n".join(violations))
        print(f"check_simd_isolation.py: {len(violations)} violation(s)")
        return 1
    print(f"check_simd_isolation.py: {args.library}: {len(members)} objects, CPU-specific code "
          "only in " + ", ".join(args.target_object) + ", none of it reachable by a shared name")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
