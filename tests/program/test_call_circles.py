"""Issue 19's layering line: no call circle spans folders or holds more than six files.

tools/call-circles.py reads the build's objects with nm: a file that uses another's function
by name calls it; a file that reads another's data (a registration table, a descriptor) does
not. The first test holds the tree to the line; the others build small object trees in a
temporary directory, laid out as CMake lays out its objects, to show the tool tells a circle
of calls from a circle through a table, and counts files and folders as it says.
"""
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT

TOOL = ROOT / "tools" / "call-circles.py"


def circles(build, *extra):
    return subprocess.run([sys.executable, str(TOOL), "--build", str(build), *extra],
                          capture_output=True, text=True, timeout=600)


def test_tree_has_no_call_circle_across_folders_or_over_six_files():
    if not (BUILD / "rules").is_dir():
        pytest.fail(f"{BUILD} holds no build (set OSPREY_BUILD to the build directory)")
    proc = circles(BUILD, "--check", "--verbose")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "spanning folders or over 6 files: 0" in proc.stdout, proc.stdout


def build_tree(tmp_path, files):
    """files: {"folder/name.c": source}; objects as CMake places them."""
    if shutil.which("cc") is None or shutil.which("nm") is None:
        pytest.fail("cc and nm are needed to build the sample objects")
    build = tmp_path / "build"
    for path, text in files.items():
        folder, name = path.split("/")
        src = tmp_path / "src" / path
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(text)
        obj = build / folder / "CMakeFiles" / f"lib{folder}.dir" / f"{name}.o"
        obj.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cc", "-c", "-O0", str(src), "-o", str(obj)], check=True)
    return build


def test_a_call_circle_across_two_folders_fails_the_check(tmp_path):
    build = build_tree(tmp_path, {
        "low/core.c": "int up(int); int core_help(int x) { return x ? up(x - 1) : 0; }\n",
        "high/proto.c": "int core_help(int); int up(int x) { return core_help(x) + 1; }\n",
    })
    proc = circles(build, "--check", "--verbose")
    assert proc.returncode == 1, proc.stdout
    assert "spanning folders or over 6 files: 1" in proc.stdout
    assert "2 files in high, low: high/proto.c low/core.c" in proc.stdout
    assert "high/proto.c -> low/core.c: core_help" in proc.stdout
    assert "low/core.c -> high/proto.c: up" in proc.stdout


def test_a_circle_through_a_registration_table_is_reported_apart(tmp_path):
    # The core reads the protocol's descriptor (data) and calls through its function
    # pointer; the protocol calls the core by name. Inversion of control: no call circle.
    build = build_tree(tmp_path, {
        "low/core.c": ("struct desc { int (*parse)(int); };\n"
                       "extern const struct desc proto_desc;\n"
                       "int core_help(int x) { return x + 1; }\n"
                       "int core_run(int x) { return proto_desc.parse(x); }\n"),
        "high/proto.c": ("struct desc { int (*parse)(int); };\n"
                         "int core_help(int);\n"
                         "static int parse(int x) { return core_help(x); }\n"
                         "const struct desc proto_desc = {parse};\n"),
    })
    proc = circles(build, "--check", "--verbose")
    assert proc.returncode == 0, proc.stdout
    assert "spanning folders or over 6 files: 0" in proc.stdout
    assert "circles through registration tables (informational): 1" in proc.stdout
    assert "low/core.c -> high/proto.c: proto_desc" in proc.stdout


def test_a_table_file_that_names_a_function_calls_it(tmp_path):
    # A table whose row names another folder's function by name is a call, not a table
    # read: the circle it closes is a call circle.
    build = build_tree(tmp_path, {
        "low/core.c": ("int proto_parse(int);\n"
                       "int (*const rows[])(int) = {proto_parse};\n"
                       "int core_help(int x) { return rows[0](x) + 1; }\n"),
        "high/proto.c": "int core_help(int); int proto_parse(int x) { return x ? core_help(x - 1) : 0; }\n",
    })
    proc = circles(build, "--check")
    assert proc.returncode == 1, proc.stdout


def test_seven_files_in_one_folder_fail_six_pass(tmp_path):
    def ring(n):
        return {f"one/f{i}.c": f"int f{(i + 1) % n}(int); int f{i}(int x) {{ return x ? f{(i + 1) % n}(x - 1) : 0; }}\n"
                for i in range(n)}
    proc = circles(build_tree(tmp_path / "six", ring(6)), "--check")
    assert proc.returncode == 0, proc.stdout
    proc = circles(build_tree(tmp_path / "seven", ring(7)), "--check")
    assert proc.returncode == 1, proc.stdout
    assert "7 files in one:" in proc.stdout
