"""Issue 19's "no dependency runs back up a layer", "no file outside parsers/<proto>/ calls a
protocol's functions" (nor another protocol's folder: `sealed parsers/*`) and "nm of libmon
shows no name without mon_".

tools/layer-check.py reads the layer order from tools/layers.txt and checks three things: the
includes of the sources (and each top folder README's "May include:" line), the calls and
table reads of the build's objects (nm), and libmon's exported names. The first test holds the
tree to it; the others lay out small trees in a temporary directory to show each reading
fails when something runs up, and that a registration table may read the rows above it.
"""
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT

TOOL = ROOT / "tools" / "layer-check.py"

LAYERS = ("stack\nparsers/core\nparsers/ber\nparsers\nrules\n\ntable parsers/core/registry.c\n"
          "sealed parsers\nsealed parsers/*\n")


def check(root, build, *extra):
    return subprocess.run([sys.executable, str(TOOL), "--root", str(root), "--build", str(build),
                           "--layers", str(root / "layers.txt"), "--check", *extra],
                          capture_output=True, text=True, timeout=600)


def test_tree_runs_down_only_and_libmon_exports_only_mon_names():
    if not (BUILD / "rules").is_dir():
        pytest.fail(f"{BUILD} holds no build (set OSPREY_BUILD to the build directory)")
    proc = subprocess.run([sys.executable, str(TOOL), "--build", str(BUILD), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "running up or not allowed: 0" in proc.stdout, proc.stdout
    assert "running up: 0" in proc.stdout, proc.stdout
    assert "without mon_: 0" in proc.stdout, proc.stdout


def tree(tmp_path, files, mon_syms=("mon_run",)):
    """files: {"folder/name.c": source} as sources under root and objects as CMake lays them
    out; libmon.a defines mon_syms."""
    if shutil.which("cc") is None or shutil.which("nm") is None or shutil.which("ar") is None:
        pytest.fail("cc, nm and ar are needed to build the sample objects")
    root, build = tmp_path / "src", tmp_path / "build"
    root.mkdir(parents=True)
    (root / "layers.txt").write_text(LAYERS)
    for path, text in files.items():
        src = root / path
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(text)
        if not path.endswith(".c"):
            continue
        folder, name = path.rsplit("/", 1)
        obj = build / folder.split("/")[0] / "CMakeFiles" / "lib.dir" / folder.partition("/")[2] / f"{name}.o"
        obj.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cc", "-c", "-O0", "-I", str(root), str(src), "-o", str(obj)], check=True)
    mon = tmp_path / "mon.c"
    mon.write_text("".join(f"int {s}(void) {{ return 0; }}\n" for s in mon_syms))
    (build / "lib").mkdir(parents=True, exist_ok=True)
    subprocess.run(["cc", "-c", str(mon), "-o", str(tmp_path / "mon.o")], check=True)
    subprocess.run(["ar", "qc", str(build / "lib" / "libmon.a"), str(tmp_path / "mon.o")],
                   check=True)
    return root, build


GOOD = {
    "stack/mon.c": "int mon_help(int x) { return x; }\n",
    "parsers/core/flow.c": "int mon_help(int); int pflow_run(int x) { return mon_help(x); }\n",
    "parsers/http/http.c": "int pflow_run(int); int http_parse(int x) { return pflow_run(x); }\n",
}


def test_calls_down_pass(tmp_path):
    proc = check(*tree(tmp_path, GOOD))
    assert proc.returncode == 0, proc.stdout
    assert "running up: 0" in proc.stdout and "without mon_: 0" in proc.stdout


def fails_with(tmp_path, extra, line):
    """GOOD plus extra fails the check, saying line."""
    proc = check(*tree(tmp_path, {**GOOD, **extra}))
    assert proc.returncode == 1, proc.stdout
    assert line in proc.stdout, proc.stdout


def test_a_call_up_a_layer_fails(tmp_path):
    fails_with(tmp_path, {
        "parsers/core/drivers.c": "int http_parse(int); int drive(int x) { return http_parse(x); }\n",
    }, "calls up: parsers/core/drivers.c -> parsers/http/http.c: http_parse")


def test_a_call_into_a_protocol_folder_from_outside_parsers_fails(tmp_path):
    # rules/ is above parsers/, so only the seal forbids it: a protocol is reached through
    # the parsers' public API, never by its own functions
    fails_with(tmp_path, {
        "rules/app.c": "int http_parse(int); int app(int x) { return http_parse(x); }\n",
    }, "calls into sealed parsers: rules/app.c -> parsers/http/http.c: http_parse")


def test_an_include_up_a_layer_fails(tmp_path):
    fails_with(tmp_path, {
        "parsers/http/http_int.h": "int http_parse(int);\n",
        "stack/decode.c": '#include "parsers/http/http_int.h"\nint dec(int x) { return x; }\n',
    }, "include up: stack/decode.c -> parsers/http/http_int.h")


def test_an_include_the_readme_does_not_allow_fails(tmp_path):
    files = dict(GOOD)
    files["stack/include/mon.h"] = "int mon_help(int);\n"
    files["stack/internal.h"] = "int mon_inner(int);\n"
    files["rules/README.md"] = "# rules\n\nMay include: `stack/include/*`. Never stack internals.\n"
    files["rules/ok.c"] = '#include "stack/include/mon.h"\nint ok(int x) { return mon_help(x); }\n'
    proc = check(*tree(tmp_path, files))
    assert proc.returncode == 0, proc.stdout
    files["rules/bad.c"] = '#include "stack/internal.h"\nint bad(int x) { return x; }\n'
    proc = check(*tree(tmp_path / "again", files))
    assert proc.returncode == 1, proc.stdout
    assert 'include not in rules/README.md "May include": rules/bad.c -> stack/internal.h' \
        in proc.stdout


def test_a_registration_table_may_read_rows_above_others_may_not(tmp_path):
    files = dict(GOOD)
    files["parsers/http/http.c"] += "const int http_proto = 1;\n"
    files["parsers/core/registry.c"] = "extern const int http_proto; const int *const P[] = {&http_proto};\n"
    proc = check(*tree(tmp_path, files))
    assert proc.returncode == 0, proc.stdout
    files["parsers/core/define.c"] = "extern const int http_proto; int n(void) { return http_proto; }\n"
    proc = check(*tree(tmp_path / "again", files))
    assert proc.returncode == 1, proc.stdout
    assert "reads up: parsers/core/define.c -> parsers/http/http.c: http_proto" in proc.stdout


def test_libmon_exporting_a_name_without_mon_fails(tmp_path):
    proc = check(*tree(tmp_path, GOOD, mon_syms=("mon_run", "tcp_reasm")))
    assert proc.returncode == 1, proc.stdout
    assert "libmon exports tcp_reasm" in proc.stdout


def test_a_call_into_another_protocol_folder_fails(tmp_path):
    # mdns and http are one unit (`parsers`): only `sealed parsers/*` tells their folders apart
    fails_with(tmp_path, {
        "parsers/mdns/mdns.c": "int http_parse(int); int mdns(int x) { return http_parse(x); }\n",
    }, "calls into sealed parsers/http: parsers/mdns/mdns.c -> parsers/http/http.c: http_parse")


def test_a_table_read_across_protocol_folders_fails(tmp_path):
    fails_with(tmp_path, {
        "parsers/tls/tls.c": "const int tls_rows[2] = {1, 2};\n",
        "parsers/quic/quic.c": "extern const int tls_rows[2]; int q(void) { return tls_rows[1]; }\n",
    }, "reads into sealed parsers/tls: parsers/quic/quic.c -> parsers/tls/tls.c: tls_rows")


def test_another_protocols_private_header_fails(tmp_path):
    fails_with(tmp_path, {
        "parsers/http/http_int.h": "int http_parse(int);\n",
        "parsers/http2/h2.c": '#include "../http/http_int.h"\nint h2(int x) { return x; }\n',
    }, "include into sealed parsers/http: parsers/http2/h2.c -> parsers/http/http_int.h")


def test_protocols_share_a_library_and_call_within_their_own_folder(tmp_path):
    # the shared reader ranks below the protocols: two protocols use it, and a protocol's
    # files call each other freely
    files = dict(GOOD)
    files["parsers/ber/ber.h"] = "int ber_next(int);\n"
    files["parsers/ber/ber.c"] = '#include "ber.h"\nint pflow_run(int); int ber_next(int x) { return pflow_run(x); }\n'
    files["parsers/ldap/ldap.c"] = '#include "../ber/ber.h"\nint ldap(int x) { return ber_next(x); }\n'
    files["parsers/snmp/snmp.c"] = '#include "../ber/ber.h"\nint snmp(int x) { return ber_next(x); }\n'
    files["parsers/http/stream.c"] = "int http_parse(int); int http_stream(int x) { return http_parse(x); }\n"
    proc = check(*tree(tmp_path, files))
    assert proc.returncode == 0, proc.stdout
    assert "running up or not allowed: 0" in proc.stdout and "running up: 0" in proc.stdout
