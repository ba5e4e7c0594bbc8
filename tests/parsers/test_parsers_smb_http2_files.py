"""SMB and HTTP/2 files through the file layer (parsers/smb/files.c, parsers/http2/streams.c →
parsers/core/files.c): an SMB2 write of a known file and an HTTP/2 DATA download each make one
fileinfo record whose md5 / sha1 / sha256 and size are hashlib's over the file's bytes; the
file keywords (filesize, filemd5, filename) fire on `alert smb`, `alert http2` and on
`alert tcp` (a rule on files that names no protocol reads every protocol's files, as
Suricata's); filestore writes their exact bytes; records validate against Suricata's EVE
schema."""
import hashlib
import json

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect
from outputs_helpers import osprey_out
from test_parsers_http2 import DATA, HEADERS, PREFACE, REQ, RESP, SETTINGS, frame
from test_parsers_smb_commands import EICAR, FID, file_conv, smb2

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
FILES = ["--set", "outputs.eve-log.types=[alert, files, smb, http]",
         "--set", "outputs.eve-log.files.force-hash=[md5, sha1, sha256]", "-k", "none"]


def valid(records):
    v = Draft7Validator(SCHEMA)
    for r in records:
        errs = [e.message for e in v.iter_errors(r)]
        assert not errs, (r, errs)


def hashes(info, data):
    assert info["size"] == len(data)
    assert info["md5"] == hashlib.md5(data).hexdigest()
    assert info["sha1"] == hashlib.sha1(data).hexdigest()
    assert info["sha256"] == hashlib.sha256(data).hexdigest()


def test_smb2_write_is_a_file(tmp_path):
    # written in two pieces at their offsets, the second first: reassembled in order
    out = osprey_out(tmp_path, file_conv([(20, EICAR[20:]), (0, EICAR[:20])]), [], *FILES)
    fi = out.of("fileinfo")
    valid(fi)
    assert len(fi) == 1
    f = fi[0]
    assert f["app_proto"] == "smb" and f["fileinfo"]["filename"] == "eicar.txt"
    assert f["fileinfo"]["state"] == "CLOSED"
    hashes(f["fileinfo"], EICAR)


def test_smb_file_keywords(tmp_path):
    md5 = tmp_path / "eicar.md5"
    md5.write_text(hashlib.md5(EICAR).hexdigest() + "\n")
    rules = ['alert smb any any -> any any (filesize:68; sid:1;)',
             'alert tcp any any -> any any (filesize:<70; sid:2;)',
             'alert tcp any any -> any any (filesize:>100; sid:3;)',
             f'alert smb any any -> any any (filemd5:{md5}; sid:4;)',
             'alert smb any any -> any any (filename:"eicar.txt"; sid:5;)',
             'alert smb any any -> any any (flow:to_client; filesize:68; sid:6;)',
             'alert tcp any any -> any any (file.data; content:"EICAR-STANDARD"; sid:7;)']
    r = detect(tmp_path, file_conv([(0, EICAR[:20]), (20, EICAR[20:])]), rules, "-k", "none")
    assert sorted(r.sids) == [1, 2, 4, 5, 7]


def test_smb_file_cut_by_the_flow_end(tmp_path):
    # the session of file_conv without its close: the write's answer came, nothing is pending
    # at the flow's end: the file is reported TRUNCATED with a record of its own (its write)
    full = file_conv([(0, EICAR)])
    close_req = smb2(6, 5, b"\x18\x00\x00\x00\x00\x00\x00\x00" + FID)
    cut = [p for p in full if close_req not in bytes(p) and b"\x3c\x00\x00\x00" + bytes(52)
           not in bytes(p)]
    assert len(cut) == len(full) - 2
    out = osprey_out(tmp_path, cut, [], *FILES)
    fi = out.of("fileinfo")
    valid(fi)
    assert len(fi) == 1 and fi[0]["fileinfo"]["state"] == "TRUNCATED"
    assert fi[0]["fileinfo"]["size"] == len(EICAR) and fi[0]["fileinfo"]["filename"] == "eicar.txt"
    assert fi[0]["smb"]["command"] == "SMB2_COMMAND_WRITE"


BIG = bytes(range(256)) * 200  # 51,200 bytes in DATA frames of 16 KiB (within one window)


def download():
    frames = b"".join(frame(DATA, 0, 1, BIG[i:i + 16384]) for i in range(0, len(BIG), 16384))
    c = Conv(sport=41000, dport=8080).handshake()
    c.send(True, PREFACE + frame(SETTINGS, 0, 0))
    c.send(False, frame(SETTINGS, 0, 0) + frame(SETTINGS, 1, 0))
    c.send(True, frame(SETTINGS, 1, 0) + frame(HEADERS, 0x05, 1, REQ))
    c.send(False, frame(HEADERS, 4, 1, RESP) + frames + frame(DATA, 1, 1), seg=1400)
    return c.close().pkts


def test_http2_download_is_a_file(tmp_path):
    out = osprey_out(tmp_path, download(), [], *FILES)
    fi = out.of("fileinfo")
    valid(fi)
    assert len(fi) == 1
    f = fi[0]
    assert f["app_proto"] == "http2" and f["fileinfo"]["filename"] == "/dl/payload.exe"
    assert f["fileinfo"]["state"] == "CLOSED"
    hashes(f["fileinfo"], BIG)


def test_http2_file_keywords(tmp_path):
    md5 = tmp_path / "big.md5"
    md5.write_text(hashlib.md5(BIG).hexdigest() + "\n")
    rules = [f'alert http2 any any -> any any (flow:to_client; filemd5:{md5}; sid:1;)',
             f'alert http2 any any -> any any (filesize:{len(BIG)}; sid:2;)',
             'alert http2 any any -> any any (filesize:<100; sid:3;)',
             'alert http2 any any -> any any (fileext:"exe"; sid:4;)']
    assert sorted(detect(tmp_path, download(), rules, "-k", "none").sids) == [1, 2, 4]


def stored_bytes(out, data):
    sha = hashlib.sha256(data).hexdigest()
    return (out.logdir / "filestore" / sha[:2] / sha).read_bytes()


def test_filestore_smb_and_http2(tmp_path):
    store = ["--set", "outputs.file-store.enabled=yes"]
    out = osprey_out(tmp_path, file_conv([(0, EICAR)]),
                     ['alert smb any any -> any any (filename:"eicar.txt"; filestore; sid:1;)'],
                     *FILES, *store, name="smb")
    assert stored_bytes(out, EICAR) == EICAR
    assert out.of("fileinfo")[0]["fileinfo"]["stored"] is True
    out = osprey_out(tmp_path, download(),
                     ['alert http2 any any -> any any (fileext:"exe"; filestore; sid:1;)'],
                     *FILES, *store, name="h2")
    assert stored_bytes(out, BIG) == BIG
    assert out.of("fileinfo")[0]["fileinfo"]["stored"] is True
