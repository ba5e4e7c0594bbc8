"""README.md and docs/: the README stays short (at most 200 lines), starts with the two
commands .ci/run and a new user rely on, and every Markdown link in it and in the docs/ pages
to a file of the repository resolves — the file exists and, with #anchor, has that heading."""
import re

from conftest import ROOT

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    """The anchor GitHub makes of a heading: lower case, punctuation dropped, spaces to -."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def anchors(path):
    return {slug(line.lstrip("#")) for line in path.read_text().splitlines()
            if re.match(r"#{1,6} ", line)}


def links(path):
    """(target path, anchor or None) of each relative link of a Markdown file."""
    out = []
    in_code = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):  # http:, mailto: …
                continue
            file, _, anchor = target.partition("#")
            out.append(((path.parent / file).resolve() if file else path, anchor or None))
    return out


def broken(path):
    bad = []
    for target, anchor in links(path):
        if not target.exists():
            bad.append(f"{target}: no such file")
        elif anchor and target.suffix == ".md" and anchor not in anchors(target):
            bad.append(f"{target.name}#{anchor}: no such heading")
    return bad


def test_readme_is_at_most_200_lines():
    n = len((ROOT / "README.md").read_text().splitlines())
    assert n <= 200, f"README.md has {n} lines: move the detail into a docs/ page"


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[:2] == ["# Osprey", ""]
    assert lines[2] == "```sh" and lines[5] == "```"
    assert lines[3].split("#")[0].strip() == "tools/demo.sh"
    assert lines[4].split("#")[0].strip() == "tools/test.sh"
    # .ci/run runs the second one (after installing what is missing)
    assert (ROOT / ".ci" / "run").read_text().rstrip().endswith("tools/test.sh")


def test_readme_links_every_docs_page_and_each_resolves():
    readme = ROOT / "README.md"
    assert broken(readme) == []
    linked = {t.name for t, _ in links(readme) if t.parent == ROOT / "docs"}
    pages = {p.name for p in (ROOT / "docs").glob("*.md")} - {"README.md"}
    assert pages - linked == set(), "docs pages the README's map does not list"


def test_docs_links_resolve():
    bad = [b for page in sorted((ROOT / "docs").glob("*.md")) for b in broken(page)]
    assert bad == []


def test_the_checker_sees_a_broken_link(tmp_path):
    (tmp_path / "a.md").write_text("# Top\n[ok](a.md#top) [gone](b.md) [no](a.md#nowhere)\n")
    assert broken(tmp_path / "a.md") == [f"{tmp_path / 'b.md'}: no such file",
                                         "a.md#nowhere: no such heading"]
