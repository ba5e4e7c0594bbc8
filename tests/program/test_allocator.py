"""The osprey program's allocator options (engine/malloc_conf.c): the optimised build links
jemalloc (top CMakeLists.txt) with its arenas on transparent huge pages and a 30 s decay, and
MALLOC_CONF in the environment still overrides them. The sanitizer build, which the other
tests run, replaces the allocator: this test reads the optimised build tools/test.sh makes
first (OSPREY_RELEASE_BUILD, default ./build)."""
import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

RELEASE = Path(os.environ.get("OSPREY_RELEASE_BUILD", ROOT / "build")) / "bin" / "osprey"


def jemalloc_options(extra=""):
    if not RELEASE.exists():
        pytest.fail(f"{RELEASE} not built (tools/test.sh builds it before the tests)")
    env = dict(os.environ, MALLOC_CONF="stats_print:true" + extra)
    proc = subprocess.run([str(RELEASE), "-V"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout + proc.stderr
    assert "jemalloc statistics" in out, "the optimised build does not link jemalloc"
    return dict(re.findall(r"^\s+opt\.(\w+): (\S+)", out, re.M))


def test_arenas_on_huge_pages_with_a_30s_decay():
    opt = jemalloc_options()
    assert opt["thp"] == '"always"'
    assert opt["dirty_decay_ms"] == "30000" and opt["muzzy_decay_ms"] == "30000"


def test_the_environment_overrides_them():
    opt = jemalloc_options(",thp:default,dirty_decay_ms:5000")
    assert opt["thp"] == '"default"' and opt["dirty_decay_ms"] == "5000"
    assert opt["muzzy_decay_ms"] == "30000"  # the ones it does not name stay the program's


def test_build_info_names_jemalloc_and_lto():
    # the optimised build's --build-info: jemalloc's own version (the call that reads it also
    # keeps jemalloc linked under LTO) and whether the program was linked with LTO, which the
    # build does with GCC unless OSPREY_LTO is off (top CMakeLists.txt)
    if not RELEASE.exists():
        pytest.fail(f"{RELEASE} not built (tools/test.sh builds it before the tests)")
    out = subprocess.run([str(RELEASE), "--build-info"], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert re.search(r"^\s+jemalloc:\s+\d+\.\d+\.\d+", out, re.M), out
    build = RELEASE.parent.parent
    compilers = "".join(p.read_text() for p in build.glob("CMakeFiles/*/CMakeCCompiler.cmake"))
    gnu = 'set(CMAKE_C_COMPILER_ID "GNU")' in compilers
    lto_off = re.search(r"^OSPREY_LTO:BOOL=OFF$", (build / "CMakeCache.txt").read_text(), re.M)
    want = "yes" if gnu and not lto_off else "no"
    assert re.search(rf"^\s+Link-time optimisation:\s+{want}$", out, re.M), out
