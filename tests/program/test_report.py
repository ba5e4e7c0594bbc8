"""The HTML report of an offline run: `osprey -r … --report FILE.html` (and `osprey-report
eve.json -o FILE.html`) writes one self-contained page whose tables show exactly the run's
alerts by signature, severity and host, the top talkers, the protocol mix, the flows and the
alerts' transactions; headless Chromium renders it (screenshot checked not blank)."""
import json
import re
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser

import pytest
from scapy.layers.dns import DNS, DNSQR
from scapy.layers.inet import IP, UDP

from conftest import binary, run, stamp, write_pcap
from detect_helpers import Conv

RULES = """\
alert http any any -> any any (msg:"admin page"; http.uri; content:"/admin"; priority:1; sid:10; rev:1;)
alert dns any any -> any any (msg:"evil name"; dns.query; content:"evil"; priority:2; sid:20; rev:1;)
alert udp any any -> any 9999 (msg:"junk datagram"; content:"junk"; sid:30; rev:1;)
"""


def traffic():
    pkts = []
    for i, cli in enumerate(("10.0.0.1", "10.0.0.3")):
        req = b"GET /admin/login HTTP/1.1\r\nHost: intranet\r\nUser-Agent: t\r\n\r\n"
        resp = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
        pkts += Conv(src=cli, dst="10.0.0.2", sport=40000 + i).handshake().send(True, req) \
            .send(False, resp).close().pkts
    for i, name in enumerate(("evil.example", "www.evil.test", "evil.org", "good.example")):
        pkts.append(IP(src="10.0.0.5", dst="10.0.0.53") / UDP(sport=5000 + i, dport=53) /
                    DNS(id=i + 1, rd=1, qd=DNSQR(qname=name)))
    pkts.append(IP(src="10.0.0.7", dst="10.0.0.2") / UDP(sport=7, dport=9999) / b"junk!")
    return stamp(pkts, step=0.5)


class Tables(HTMLParser):
    """The page's tables by id: lists of rows of cell texts; and every tag seen."""

    def __init__(self):
        super().__init__()
        self.tables, self.tags, self.attrs = {}, set(), []
        self._t = self._row = self._cell = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.append((tag, dict(attrs)))
        a = dict(attrs)
        if tag == "table":
            self._t = self.tables.setdefault(a.get("id"), [])
        elif tag == "tr" and self._t is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self._row and self._row[0] not in ("sid", "severity", "source", "destination",
                                                  "host", "app_proto", "start", "time"):
                self._t.append(self._row)
            self._row = None
        elif tag == "table":
            self._t = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def parse(path):
    t = Tables()
    t.feed(path.read_text())
    return t


def check_page(page, eve_recs):
    t = parse(page)
    assert t.tables["signatures"] == [["20", "evil name", "2", "3"], ["10", "admin page", "1", "2"],
                                      ["30", "junk datagram", "3", "1"]]
    assert t.tables["severity"] == [["1", "2"], ["2", "3"], ["3", "1"]]
    assert t.tables["sources"] == [["10.0.0.5", "3"], ["10.0.0.1", "1"], ["10.0.0.3", "1"],
                                   ["10.0.0.7", "1"]]
    assert sorted(map(tuple, t.tables["destinations"])) == [("10.0.0.2", "3"), ("10.0.0.53", "3")]
    flows = [r for r in eve_recs if r["event_type"] == "flow"]
    assert len(t.tables["flows"]) == len(flows) == 7
    protos = {r[0]: int(r[1]) for r in t.tables["protocols"]}
    assert protos == {"http": 2, "dns": 4, "unknown": 1} or protos == {"http": 2, "dns": 4, "failed": 1}
    # the top talker is the web server: both HTTP flows' bytes
    web = sum(f["flow"]["bytes_toserver"] + f["flow"]["bytes_toclient"] for f in flows
              if "10.0.0.2" in (f["src_ip"], f["dest_ip"]))
    assert t.tables["talkers"][0][:2] == ["10.0.0.2", str(web)]
    tx = t.tables["transactions"]
    assert len(tx) == 6
    assert sorted(r[1] for r in tx) == ["10", "10", "20", "20", "20", "30"]
    text = page.read_text()
    assert "/admin/login" in text and "evil.example" in text  # the http and dns objects
    # self-contained: no external reference at all
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)
    assert "<link" not in text and "@import" not in text
    for svg in ("plot-signatures", "plot-severity", "plot-sources", "plot-time", "plot-talkers",
                "plot-protocols"):
        assert f'id="{svg}"' in text
    card = re.search(r'id="card-alerts"><b>(\d+)</b>', text)
    assert card and card.group(1) == "6"


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit PNG, decoded with the standard library."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w, h, bpp = 8, b"", None, None, 3
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def report_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("report")
    pcap = write_pcap(d / "t.pcap", traffic())
    (d / "t.rules").write_text(RULES)
    logdir = d / "log"
    logdir.mkdir()
    page = d / "run.html"
    proc = run([binary("osprey"), "-r", str(pcap), "-S", str(d / "t.rules"), "-l", str(logdir),
                "--report", str(page)])
    recs = [json.loads(l) for l in (logdir / "eve.json").read_text().splitlines()]
    return d, proc, page, recs


def test_report_of_a_run(report_run):
    d, proc, page, recs = report_run
    assert f"osprey: report in {page}" in proc.stdout
    assert sorted(r["alert"]["signature_id"] for r in recs if r["event_type"] == "alert") == [
        10, 10, 20, 20, 20, 30]
    check_page(page, recs)


def test_report_of_a_log_already_written(report_run):
    d, _, _, recs = report_run
    page = d / "again.html"
    run([binary("osprey-report"), str(d / "log" / "eve.json"), "-o", str(page)])
    check_page(page, recs)


def test_report_needs_r(tmp_path):
    proc = run([binary("osprey"), "--report", str(tmp_path / "x.html")], check=False)
    assert proc.returncode == 2 and "--report goes with -r" in proc.stderr


def test_report_rendered_in_headless_chromium(report_run):
    browser = chromium()
    if browser is None:
        pytest.skip("chromium is not installed (tools/install-deps.sh installs it)")
    d, _, page, _ = report_run
    shot = d / "shot.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={shot}", "--window-size=1200,1800",
                    "--user-data-dir=" + str(d / "chromium-profile"), page.as_uri()],
                   capture_output=True, timeout=120, check=False)
    assert shot.exists(), "chromium wrote no screenshot"
    w, h, bpp, rows = png_pixels(shot)
    assert (w, h) == (1200, 1800)
    # not blank: the header band, the cards and the red bars give many distinct colours
    colours = set()
    lum = []
    for y in range(0, h, 6):
        row = rows[y]
        for x in range(0, w, 6):
            px = row[x * bpp:x * bpp + 3]
            colours.add(px)
            lum.append(sum(px) / 3)
    mean = sum(lum) / len(lum)
    var = sum((v - mean) ** 2 for v in lum) / len(lum)
    assert var > 200, var
    assert len(colours) > 20
    assert bytes((0xe6, 0x39, 0x46)) in colours  # a bar of the plots (.bar fill #e63946)
