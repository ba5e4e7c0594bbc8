"""Files end to end (parsers/core/files.c and its producers, rules/compile/unit_file.c,
engine/emit/emit_files.c, outputs/eve_file.c and filestore_out.c): an HTTP download with
Content-Encoding gzip and chunked framing is one file of its decoded bytes (fileinfo md5 /
sha1 / sha256 equal hashlib's over them), a POST body is one, a GET request none; the file
keywords (filename, fileext, filemagic, filesize, filemd5/sha1/sha256 lists read relative to
the rule file, with their errors); file.name / file.magic; ftp-data's transfer; filestore
writing the exact bytes under filestore/XX/SHA256. Every record validates against Suricata's
EVE schema."""
import gzip
import hashlib
import json

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import CLI, SRV, Conv, detect, rule
from outputs_helpers import osprey_out

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
BODY = b"MZ\x90\x00" + b"This program cannot be run in DOS mode.\r\n" * 40
FILES = ["--set", "outputs.eve-log.types=[alert, files, http, ftp_data]",
         "--set", "outputs.eve-log.files.force-hash=[md5, sha1, sha256]",
         "--set", "outputs.eve-log.files.force-magic=yes"]


def chunked(data, n=100):
    out = b""
    for i in range(0, len(data), n):
        part = data[i:i + n]
        out += b"%x\r\n" % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


def download(body=BODY, uri=b"/dl/setup.exe?x=1", extra=b"", seg=300):
    """GET, then a gzip'd chunked response carrying body (split in segments of seg)."""
    z = chunked(gzip.compress(body))
    resp = (b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"
            + extra + b"\r\n" + z)
    c = Conv().handshake().send(True, b"GET " + uri + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    return c.send(False, resp, seg=seg).close().pkts


def valid(records):
    v = Draft7Validator(SCHEMA)
    for r in records:
        errs = [e.message for e in v.iter_errors(r)]
        assert not errs, (r, errs)


def test_gzip_download_fileinfo_hashes_are_hashlibs(tmp_path):
    out = osprey_out(tmp_path, download(), [], *FILES, "-k", "none")
    fi = out.of("fileinfo")
    assert len(fi) == 1
    f = fi[0]
    valid(fi)
    assert f["app_proto"] == "http" and f["http"]["url"] == "/dl/setup.exe?x=1"
    assert (f["src_ip"], f["src_port"], f["dest_ip"], f["dest_port"]) == (SRV, 80, CLI, 40000)
    info = f["fileinfo"]
    assert info["filename"] == "/dl/setup.exe"  # the URI's path
    assert info["state"] == "CLOSED" and info["gaps"] is False and info["stored"] is False
    assert info["size"] == len(BODY) and info["tx_id"] == 0
    assert info["md5"] == hashlib.md5(BODY).hexdigest()
    assert info["sha1"] == hashlib.sha1(BODY).hexdigest()
    assert info["sha256"] == hashlib.sha256(BODY).hexdigest()
    assert "executable" in info["magic"] or "MS-DOS" in info["magic"]


def test_hashes_do_not_depend_on_segmentation(tmp_path):
    a = osprey_out(tmp_path, download(seg=7), [], *FILES, name="a").of("fileinfo")
    b = osprey_out(tmp_path, download(seg=1000), [], *FILES, name="b").of("fileinfo")
    assert a[0]["fileinfo"]["sha256"] == b[0]["fileinfo"]["sha256"] == \
        hashlib.sha256(BODY).hexdigest()


def test_content_disposition_names_the_file_and_requests(tmp_path):
    """Content-Disposition's filename wins over the URI; a POST body is a file of the
    request (the client sends it), a GET has none; no hashes unless asked for."""
    c = Conv().handshake()
    c.send(True, b"POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
    c.send(False, b"HTTP/1.1 200 OK\r\nContent-Disposition: attachment; filename=\"r.pdf\"\r\n"
                  b"Content-Length: 3\r\n\r\nabc")
    c.send(True, b"GET /two HTTP/1.1\r\nHost: x\r\n\r\n")
    c.send(False, b"HTTP/1.1 204 No Content\r\n\r\n").close()
    out = osprey_out(tmp_path, c.pkts, [], "--set", "outputs.eve-log.types=[files]")
    fi = out.of("fileinfo")
    valid(fi)
    got = [(r["src_ip"], r["fileinfo"]["filename"], r["fileinfo"]["size"],
            r["fileinfo"]["tx_id"], "md5" in r["fileinfo"]) for r in fi]
    assert got == [(CLI, "/up", 5, 0, False), (SRV, "r.pdf", 3, 0, False)]


MD5 = hashlib.md5(BODY).hexdigest()


@pytest.mark.parametrize("body,sids", [
    ('filename:"setup.exe";', [1]),
    ('filename:"SETUP";', [1]),                   # any case
    ('filename:!"setup";', []),
    ('filename:"other";', []),
    ('fileext:"exe";', [1]),
    ('fileext:"EXE";', [1]),
    ('fileext:"ex";', []),                         # the whole extension
    ('fileext:!"pdf";', [1]),
    ('filemagic:"executable";', [1]),
    ('filemagic:"PDF";', []),
    ('filesize:%d;' % len(BODY), [1]),
    ('filesize:>1000;', [1]),
    ('filesize:<100;', []),
    ('filesize:1000-%d;' % (len(BODY) + 1), [1]),  # exclusive range
    ('filesize:1000-%d;' % len(BODY), []),
    ('filemd5:good.md5;', [1]),
    ('filemd5:!good.md5;', []),
    ('filemd5:other.md5;', []),
    ('filesha256:good.sha256;', [1]),
    ('filesha1:good.sha1;', [1]),
    ('file.name; content:"/dl/"; startswith;', [1]),
    ('file.magic; content:"executable";', [1]),
    ('flow:to_server; filename:"setup";', []),    # the file came from the server
])
def test_file_keywords(tmp_path, body, sids):
    (tmp_path / "good.md5").write_text("# a list\n%s\n%s  other\n" % ("0" * 32, MD5))
    (tmp_path / "other.md5").write_text("%s\n" % ("1" * 32))
    (tmp_path / "good.sha256").write_text(hashlib.sha256(BODY).hexdigest().upper() + "\n")
    (tmp_path / "good.sha1").write_text(hashlib.sha1(BODY).hexdigest() + "\n")
    r = detect(tmp_path, download(), [rule(body, proto="http")])
    assert r.sids == sids


def test_truncated_file_has_no_hash_and_no_size_match(tmp_path):
    """A body cut by the body-file-limit is a truncated file: no digests, filesize and
    filemd5 do not hold."""
    (tmp_path / "good.md5").write_text(MD5 + "\n")
    rules = [rule('filemd5:good.md5;', sid=1, proto="http"),
             rule('filesize:>0;', sid=2, proto="http")]
    out = osprey_out(tmp_path, download(), rules, *FILES,
                     "--set", "app-layer.protocols.http.response-body-limit=1kb",
                     "--set", "app-layer.protocols.http.body-file-limit=1kb")
    info = out.of("fileinfo")[0]["fileinfo"]
    assert info["state"] == "TRUNCATED" and "md5" not in info and info["size"] == 1024
    assert [a["alert"]["signature_id"] for a in out.of("alert")] == []


def test_inspection_limit_leaves_the_file_whole(tmp_path):
    """response-body-limit bounds what rules inspect (Suricata's meaning: its default, 100kb,
    too), not the file: past it file.data no longer matches, but the file is whole — its
    size, digests and filemd5 hold, as in Suricata, whose files are bounded by the stream
    depth instead (here body-file-limit, 1mb)."""
    body = BODY + b"TAIL-PAST-1KB-MARK"
    md5 = hashlib.md5(body).hexdigest()
    (tmp_path / "good.md5").write_text(md5 + "\n")
    rules = [rule('filemd5:good.md5;', sid=1, proto="http"),
             rule('filesize:%d;' % len(body), sid=2, proto="http"),
             rule('file_data; content:"TAIL-PAST-1KB-MARK";', sid=3, proto="http"),
             rule('file_data; content:"This program cannot";', sid=4, proto="http")]
    out = osprey_out(tmp_path, download(body), rules, *FILES,
                     "--set", "app-layer.protocols.http.response-body-limit=1kb")
    info = out.of("fileinfo")[0]["fileinfo"]
    assert info["state"] == "CLOSED" and info["md5"] == md5 and info["size"] == len(body)
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2, 4]
    whole = osprey_out(tmp_path, download(body), rules, *FILES, name="whole")
    assert sorted(a["alert"]["signature_id"] for a in whole.of("alert")) == [1, 2, 3, 4]


def test_hash_list_errors_name_file_line_and_sid(tmp_path):
    (tmp_path / "bad.md5").write_text("%s\nnot-a-hash\n" % MD5)
    rules = [rule('filemd5:bad.md5;', sid=5, proto="http"),
             rule('filesha1:missing.sha1;', sid=6, proto="http"),
             rule('filemd5:good.md5;', sid=7, proto="http")]
    (tmp_path / "good.md5").write_text(MD5 + "\n")
    r = detect(tmp_path, download(), rules)
    err = r.proc.stderr
    assert "t.rules:1: sid 5: filemd5: " in err and "bad.md5:2: expected 32 hex digits" in err
    assert "t.rules:2: sid 6: filesha1: cannot read '" in err and "missing.sha1" in err
    assert r.sids == [7]


def ftp_session(data=b"some file content\n" * 3):
    """FTP: PORT, RETR temp.txt, then the data connection the server opens (active mode)."""
    c = Conv(sport=40021, dport=21).handshake()
    c.send(False, b"220 (vsFTPd 3.0.3)\r\n")
    c.send(True, b"USER anonymous\r\n").send(False, b"331 Password.\r\n")
    c.send(True, b"PASS guest\r\n").send(False, b"230 Login successful.\r\n")
    c.send(True, b"PORT 10,0,0,1,156,64\r\n").send(False, b"200 PORT command successful.\r\n")
    c.send(True, b"RETR temp.txt\r\n").send(False, b"150 Opening BINARY mode.\r\n")
    n = len(c.pkts)
    d = Conv(src=SRV, dst=CLI, sport=20, dport=40000).handshake()
    d.send(True, data).close()
    c.send(False, b"226 Transfer complete.\r\n").close()
    return c.pkts[:n] + d.pkts + c.pkts[n:]


def test_ftp_data_file(tmp_path):
    data = b"some file content\n" * 3
    rules = [rule('file.name; content:"temp.txt";', sid=1, proto="ftp-data"),
             rule('filename:"temp.txt";', sid=2, proto="ftp-data"),
             rule('fileext:"txt";', sid=3, proto="ftp-data"),
             rule('filesize:%d;' % len(data), sid=4, proto="ftp-data"),
             rule('fileext:"pdf";', sid=5, proto="ftp-data")]
    out = osprey_out(tmp_path, ftp_session(data), rules, *FILES)
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2, 3, 4]
    fi = out.of("fileinfo")
    valid(fi)
    assert len(fi) == 1 and fi[0]["app_proto"] == "ftp-data"
    assert fi[0]["fileinfo"]["filename"] == "temp.txt"
    assert fi[0]["fileinfo"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert fi[0]["src_ip"] == SRV and fi[0]["src_port"] == 20


def test_filestore_writes_the_exact_bytes(tmp_path):
    rules = [rule('filename:"setup"; filestore;', sid=1, proto="http")]
    out = osprey_out(tmp_path, download(), rules, *FILES,
                     "--set", "outputs.file-store.enabled=yes",
                     "--set", "outputs.file-store.write-fileinfo=yes")
    sha = hashlib.sha256(BODY).hexdigest()
    stored = out.logdir / "filestore" / sha[:2] / sha
    assert stored.read_bytes() == BODY
    meta = list((out.logdir / "filestore" / sha[:2]).glob(sha + ".*.1.json"))
    assert len(meta) == 1
    rec = json.loads(meta[0].read_text())
    valid([rec])
    assert rec["fileinfo"]["stored"] is True and rec["fileinfo"]["file_id"] == 1
    fi = out.of("fileinfo")
    assert fi[0]["fileinfo"]["stored"] is True


def test_filestore_without_a_match_stores_nothing(tmp_path):
    rules = [rule('filename:"nope"; filestore;', sid=1, proto="http")]
    out = osprey_out(tmp_path, download(), rules, *FILES,
                     "--set", "outputs.file-store.enabled=yes")
    assert not list((out.logdir / "filestore").rglob("*"))
    assert out.of("fileinfo")[0]["fileinfo"]["stored"] is False


def test_files_memcap_sheds_bytes_not_hashes(tmp_path):
    """Past app-layer.files.memcap a file keeps no bytes (not stored, counted), its hashes
    still computed."""
    rules = [rule('filename:"setup"; filestore;', sid=1, proto="http")]
    out = osprey_out(tmp_path, download(), rules, *FILES,
                     "--set", "outputs.file-store.enabled=yes",
                     "--set", "app-layer.files.memcap=1kb",
                     "--set", "outputs.eve-log.types=[alert, files, stats]")
    info = out.of("fileinfo")[0]["fileinfo"]
    assert info["stored"] is False and info["sha256"] == hashlib.sha256(BODY).hexdigest()
    assert not list((out.logdir / "filestore").rglob("*"))


def multipart_post(boundary=b"XyZ", seg=None):
    parts = (b"--" + boundary + b"\r\nContent-Disposition: form-data; name=\"a\"; "
             b"filename=\"toto.txt\"\r\nContent-Type: text/plain\r\n\r\ntoto est dans un bateau\n"
             b"\r\n--" + boundary + b"\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\n"
             b"not a file\r\n--" + boundary + b"\r\nContent-Disposition: form-data; name=\"b\"; "
             b"filename=\"titi.txt\"\r\n\r\nTiti a vu un gros minet.\n\r\n--" + boundary +
             b"--\r\n")
    req = (b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary="
           + boundary + b"\r\nContent-Length: %d\r\n\r\n" % len(parts) + parts)
    c = Conv().handshake().send(True, req, seg=seg)
    return c.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok").close().pkts


def test_multipart_parts_are_files(tmp_path):
    """Each part with a filename is a file of the request named by it (a form field is
    none); file.data is one element per file: a content list holds within one file, two
    file.data lists may hold in two (Suricata's file-match-crossed)."""
    rules = [rule('file.data; content:"bateau"; file.name; content:"titi.txt";', sid=1,
                  proto="http"),
             rule('file.data; content:"bateau"; content:"minet";', sid=2, proto="http"),
             rule('file.data; content:"bateau"; file.data; content:"minet";', sid=3,
                  proto="http"),
             rule('file.data; content:"not a file";', sid=4, proto="http"),
             rule('flow:to_server; filesize:25;', sid=5, proto="http"),
             rule('file.data; content:"Titi"; startswith;', sid=6, proto="http")]
    out = osprey_out(tmp_path, multipart_post(seg=50), rules, *FILES)
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 3, 5, 6]
    fi = out.of("fileinfo")
    valid(fi)
    got = [(r["fileinfo"]["filename"], r["fileinfo"]["size"], r["fileinfo"]["state"],
            r["fileinfo"]["sha256"]) for r in fi if r["src_ip"] == CLI]
    assert got == [("toto.txt", 24, "CLOSED", hashlib.sha256(b"toto est dans un bateau\n")
                    .hexdigest()),
                   ("titi.txt", 25, "CLOSED", hashlib.sha256(b"Titi a vu un gros minet.\n")
                    .hexdigest())]


def test_alert_in_a_transaction_carries_its_files(tmp_path):
    """An alert raised in a transaction has a "files" array: its files in the alert's
    direction, as Suricata writes them; one outside any file has none."""
    rules = [rule('flow:to_client; filename:"setup";', sid=1, proto="http"),
             rule('flow:to_server; http.uri; content:"/dl/";', sid=2, proto="http")]
    out = osprey_out(tmp_path, download(), rules, *FILES)
    alerts = {a["alert"]["signature_id"]: a for a in out.of("alert")}
    valid(list(alerts.values()))
    files = alerts[1]["files"]
    assert [(f["filename"], f["size"], f["state"], f["md5"]) for f in files] == \
        [("/dl/setup.exe", len(BODY), "CLOSED", MD5)]
    assert "files" not in alerts[2]


def test_suricatas_names_of_the_body_limits_win_when_set(tmp_path):
    """app-layer.protocols.http.libhtp.default-config.response-body-limit (Suricata's key, as
    suricata-verify's tests and suricata.yaml files set it) is read when set, over Osprey's
    shorter name; unset, it changes nothing."""
    body = BODY + b"TAIL-PAST-1KB-MARK"
    rules = [rule('file_data; content:"TAIL-PAST-1KB-MARK";', sid=3, proto="http")]
    lib = "app-layer.protocols.http.libhtp.default-config.response-body-limit"
    short = "app-layer.protocols.http.response-body-limit"
    for name, args, sids in [("lib-small", ["--set", f"{lib}=1kb"], []),
                             ("lib-wins", ["--set", f"{short}=1kb", "--set", f"{lib}=1mb"], [3]),
                             ("short", ["--set", f"{short}=1kb"], []),
                             ("default", [], [3])]:
        out = osprey_out(tmp_path, download(body), rules, *args, name=name)
        assert [a["alert"]["signature_id"] for a in out.of("alert")] == sids, name
