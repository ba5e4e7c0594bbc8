"""TFTP (parsers/tftp) end to end: a read request on port 69 (one transaction: EVE tftp
{packet, file, mode} as Suricata writes it, on its own record and in an alert), the transfer it
announces — the UDP flow from the server's new port back to the client's — as tftp-data, its
DATA blocks a file (fileinfo, a retransmitted block skipped, filestore and the file keywords
on `alert tftp-data`), a write request, what is no request, `enabled: no`."""
import json

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import detect, rule, udp
from outputs_helpers import osprey_out

CLI, SRV = "10.0.0.1", "10.0.0.2"
BODY = b"RFC 1350 text " * 50  # 700 bytes: a full block and a short one


def block(n, data):
    return b"\x00\x03" + n.to_bytes(2, "big") + data


def read_flow(retransmit=False):
    rrq = b"\x00\x01rfc1350.txt\x00octet\x00"
    pkts = [udp(rrq, sport=50618, dport=69)]
    blocks = [BODY[:512], BODY[512:]]
    for i, b in enumerate(blocks, 1):
        pkts.append(udp(block(i, b), src=SRV, dst=CLI, sport=3445, dport=50618))
        if retransmit and i == 1:
            pkts.append(udp(block(i, b), src=SRV, dst=CLI, sport=3445, dport=50618))
        pkts.append(udp(b"\x00\x04" + i.to_bytes(2, "big"), sport=50618, dport=3445))
    return pkts


def test_tftp_rules(tmp_path):
    rules = [rule('content:"rfc1350.txt";', 1, proto="tftp"),
             rule('content:"RFC 1350";', 2, proto="tftp"),       # the transfer is not tftp
             rule("filename:\"rfc1350.txt\"; filesize:700;", 3, proto="tftp-data"),
             rule("app-layer-protocol:tftp-data;", 4, proto="udp")]
    r = detect(tmp_path, read_flow(retransmit=True), rules)
    # sid 4, app-layer-protocol alone: once, where the transfer's flow is decided
    assert r.sids == [1, 3, 4]
    r = detect(tmp_path, read_flow(), rules, "--set", "app-layer.protocols.tftp.enabled=no",
               name="off")
    assert r.sids == []


def test_tftp_eve_and_file(tmp_path):
    out = osprey_out(tmp_path, read_flow(retransmit=True),
                     [rule('content:"octet";', 7, proto="tftp"),
                      rule("filestore;", 8, proto="tftp-data")],
                     "--set", "outputs.eve-log.types=[alert,tftp,files]",
                     "--set", "outputs.file-store.enabled=yes")
    assert [r["tftp"] for r in out.of("tftp")] == [
        {"packet": "read", "file": "rfc1350.txt", "mode": "octet"}]
    a7, a8 = out.of("alert")
    assert a7["alert"]["signature_id"] == 7 and a7["tftp"]["packet"] == "read"
    assert a8["alert"]["signature_id"] == 8 and a8["app_proto"] == "tftp-data"
    (f,) = out.of("fileinfo")
    assert f["app_proto"] == "tftp-data"
    assert {k: f["fileinfo"][k] for k in ("filename", "size", "state", "stored")} == {
        "filename": "rfc1350.txt", "size": 700, "state": "CLOSED", "stored": True}
    sha = f["fileinfo"]["sha256"]
    assert (out.logdir / "filestore" / sha[:2] / sha).read_bytes() == BODY
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("tftp") + out.of("alert"):
        assert not list(v.iter_errors(r)), r


def test_tftp_write_and_not_requests(tmp_path):
    wrq = b"\x00\x02up.bin\x00NETASCII\x00"
    pkts = [udp(wrq, sport=40000, dport=69),
            udp(b"\x00\x04\x00\x00", src=SRV, dst=CLI, sport=3000, dport=40000),
            udp(block(1, b"tiny"), sport=40000, dport=3000),
            # no request: an unknown mode, another port
            udp(b"\x00\x01x\x00bogus\x00", sport=40001, dport=69),
            udp(b"\x00\x01x\x00octet\x00", sport=40002, dport=6969)]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[tftp,files,flow]")
    assert [r["tftp"] for r in out.of("tftp")] == [
        {"packet": "write", "file": "up.bin", "mode": "NETASCII"}]
    (f,) = out.of("fileinfo")
    assert f["fileinfo"]["filename"] == "up.bin" and f["fileinfo"]["size"] == 4
    assert sorted(r["app_proto"] for r in out.of("flow")) == ["failed", "failed", "tftp",
                                                               "tftp-data"]
