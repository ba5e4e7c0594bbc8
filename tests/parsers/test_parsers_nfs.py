"""NFS and ONC-RPC (parsers/nfs, parsers/rpc) end to end: detection over UDP and TCP (record
marks, a record cut across segments, two in one), Suricata's transactions (one per call/reply,
one per file transfer; NFSv3 GETATTR left out of the records), the keywords nfs_procedure (an
inclusive range), nfs.version / nfs_version, rpc:, filestore alone as a file rule, the
app-layer events, the EVE nfs + rpc records and fileinfo (validated against Suricata's schema),
the alert's objects, `enabled: no`, and the sunrpc protocol (portmapper on port 111)."""
import json
import struct

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule, udp
from outputs_helpers import osprey_out

NFS = 100003
DIR_FH = bytes(range(1, 9))
FILE_FH = bytes([9] * 4 + [1] * 4 + [2] * 4)


def u32(v):
    return struct.pack(">I", v)


def opaque(b):
    return u32(len(b)) + b + b"\0" * (-len(b) % 4)


def call(xid, vers, proc, args, prog=NFS):
    cred = u32(0) + opaque(b"host") + u32(1000) + u32(100) + u32(0)
    return (u32(xid) + u32(0) + u32(2) + u32(prog) + u32(vers) + u32(proc) + u32(1) +
            opaque(cred) + u32(0) + u32(0) + args)


def reply(xid, status, res=b""):
    return u32(xid) + u32(1) + u32(0) + u32(0) + u32(0) + u32(0) + u32(status) + res


def mark(m):
    return u32(0x80000000 | len(m)) + m


# LOOKUP notes.txt → FILE_FH; GETATTR; READ "hello" (EOF); REMOVE gone.txt → ERR_NOENT
MSGS = [
    (True, call(10, 3, 3, opaque(DIR_FH) + opaque(b"notes.txt"))),
    (False, reply(10, 0, opaque(FILE_FH) + u32(0) + u32(0))),
    (True, call(11, 3, 1, opaque(FILE_FH))),
    (False, reply(11, 0)),
    (True, call(12, 3, 6, opaque(FILE_FH) + struct.pack(">Q", 0) + u32(4096))),
    (False, reply(12, 0, u32(0) + u32(5) + u32(1) + opaque(b"hello"))),
    (True, call(13, 3, 12, opaque(DIR_FH) + opaque(b"gone.txt"))),
    (False, reply(13, 2)),
]


def udp_flow():
    return [udp(m, sport=800, dport=2049) if cli else
            udp(m, src="10.0.0.2", dst="10.0.0.1", sport=2049, dport=800) for cli, m in MSGS]


def tcp_flow(seg=None):
    c = Conv(sport=800, dport=2049).handshake()
    # the first two calls in one segment
    c.send(True, mark(MSGS[0][1]) + mark(MSGS[2][1])[:0], seg=seg)
    for cli, m in MSGS[1:]:
        c.send(cli, mark(m), seg=seg)
    return c.close().pkts


def nfs_rule(body, sid=1):
    return rule(body, sid=sid, proto="nfs")


@pytest.mark.parametrize("body,hits", [
    ("nfs_procedure:3;", 1),
    ("nfs_procedure:<3;", 1),        # GETATTR
    ("nfs_procedure:2<>6;", 2),      # inclusive: LOOKUP and READ
    ("nfs_procedure:>6;", 1),        # REMOVE
    ("nfs_procedure:getattr;", 1),   # by name, any case: v3's table on a v3 flow
    ("nfs_procedure:LOOKUP;", 1),
    ("nfs_procedure:Read;", 1),
    ("nfs_procedure:putfh;", 0),     # a v4 operation: no v3 procedure has its name
    ("nfs.version:3;", 4),
    ("nfs_version:2<>4;", 4),
    ("nfs.version:4;", 0),
    ("flow:to_client; nfs_procedure:3;", 0),   # the calls' (Suricata: to the server)
    ("filestore;", 1),               # alone: a file rule (the READ's)
    ("app-layer-event:nfs.malformed_data;", 0),
])
@pytest.mark.parametrize("flow", ["udp", "tcp", "tcp-cut"])
def test_nfs_rules(tmp_path, body, hits, flow):
    pkts = udp_flow() if flow == "udp" else tcp_flow() if flow == "tcp" else tcp_flow(seg=7)
    r = detect(tmp_path, pkts, [nfs_rule(body)])
    assert r.sids == [1] * hits, body


@pytest.mark.parametrize("body,hits", [
    ("rpc:100003,3,6;", 1),
    ("rpc:100003,*,*;", 4),
    ("rpc:100003;", 4),
    ("rpc:100003,3,*;", 4),
    ("rpc:100003,2;", 0),
    ("rpc:100003,*,7;", 0),
    ("rpc:100000;", 0),
])
@pytest.mark.parametrize("flow", ["udp", "tcp", "tcp-cut"])
def test_rpc_keyword(tmp_path, body, hits, flow):
    """rpc: reads the packet (Snort's and Suricata's): a call behind the record mark of a TCP
    segment, at the start of a datagram; a call cut across segments is in none."""
    pkts = udp_flow() if flow == "udp" else tcp_flow() if flow == "tcp" else tcp_flow(seg=7)
    proto = "udp" if flow == "udp" else "tcp"
    r = detect(tmp_path, pkts, [rule(body, proto=proto)])
    assert r.sids == [1] * (0 if flow == "tcp-cut" else hits), body


def test_nfs_malformed_and_off(tmp_path):
    bad = call(20, 3, 3, u32(500))  # a handle longer than the message
    pkts = [udp(call(19, 3, 19, opaque(FILE_FH)), sport=801, dport=2049),
            udp(bad, sport=801, dport=2049)]
    rules = [nfs_rule("app-layer-event:nfs.malformed_data;", 1),
             nfs_rule("nfs_procedure:19;", 2)]
    assert detect(tmp_path, pkts, rules).sids == [1, 2]
    r = detect(tmp_path, pkts, rules, "--set", "app-layer.protocols.nfs.enabled=no", name="off")
    assert r.sids == []
    # another program on the NFS port is not NFS
    other = [udp(call(1, 1, 0, b"", prog=100021), sport=802, dport=2049)]
    assert detect(tmp_path, other, [rule("app-layer-protocol:nfs;", proto="udp")],
                  name="nlm").sids == []


def test_nfs_eve_records(tmp_path):
    out = osprey_out(tmp_path, tcp_flow(seg=9), [nfs_rule("nfs_procedure:6;", 5)],
                     "--set", "outputs.eve-log.types=[alert,nfs,files]")
    creds = {"machine_name": "host", "uid": 1000, "gid": 100}
    recs = [(r["nfs"], r["rpc"]) for r in out.of("nfs")]
    hh = recs[0][0]["hhash"]
    assert recs == [
        ({"version": 3, "procedure": "LOOKUP", "filename": "notes.txt", "hhash": hh, "id": 1,
          "file_tx": False, "type": "response", "status": "OK"},
         {"xid": 10, "status": "ACCEPTED", "auth_type": "UNIX", "creds": creds}),
        ({"version": 3, "procedure": "READ", "filename": "notes.txt", "hhash": hh, "id": 3,
          "file_tx": True, "type": "response", "status": "OK",
          "read": {"first": True, "last": True, "last_xid": 12, "chunks": 1}},
         {"xid": 12, "status": "ACCEPTED", "auth_type": "UNIX", "creds": creds}),
        ({"version": 3, "procedure": "REMOVE", "filename": "gone.txt",
          "hhash": recs[2][0]["hhash"], "id": 4, "file_tx": False, "type": "response",
          "status": "ERR_NOENT"},
         {"xid": 13, "status": "ACCEPTED", "auth_type": "UNIX", "creds": creds}),
    ]
    # each completed by a reply: the server's record (Suricata writes the packet's direction)
    assert [(r["src_port"], r["dest_port"]) for r in out.of("nfs")] == [(2049, 800)] * 3
    (f,) = out.of("fileinfo")
    assert f["app_proto"] == "nfs" and f["fileinfo"]["filename"] == "notes.txt"
    assert f["fileinfo"]["size"] == 5 and f["fileinfo"]["state"] == "CLOSED"
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "nfs"
    # the alert on the call: the reply's fields not in yet
    assert a["nfs"]["procedure"] == "READ" and a["nfs"]["status"] == "OK"
    assert a["rpc"]["xid"] == 12
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("nfs") + out.of("alert") + out.of("fileinfo"):
        assert not list(v.iter_errors(r)), r


def test_sunrpc_portmapper(tmp_path):
    getport = call(7, 2, 3, u32(NFS) + u32(3) + u32(17) + u32(0), prog=100000)
    pkts = [udp(getport, sport=900, dport=111),
            udp(reply(7, 0, b"")[:-4] + u32(2049), src="10.0.0.2", dst="10.0.0.1", sport=111,
                dport=900)]
    rules = [rule("app-layer-protocol:sunrpc;", 1, proto="udp"),
             rule("rpc:100000,2,3;", 2, proto="sunrpc"),
             rule('content:"|00 01 86 A0|"; offset:12; depth:4;', 3, proto="sunrpc"),
             rule("service:sunrpc; rpc:100000,2,3;", 4, proto="udp")]
    # (app-layer-protocol alone: once, where the flow's protocol is decided)
    assert detect(tmp_path, pkts, rules).sids == [1, 2, 3, 4]
    # the same call to another port is not the portmapper's
    other = [udp(getport, sport=901, dport=112)]
    assert detect(tmp_path, other, rules, name="o").sids == []
    # over TCP: record marking, two calls in one segment
    c = Conv(sport=901, dport=111).handshake().send(True, mark(getport) + mark(getport))
    out = osprey_out(tmp_path, c.close().pkts, [], "--set", "outputs.eve-log.types=[flow]",
                     name="tcp")
    assert [f["app_proto"] for f in out.of("flow")] == ["sunrpc"]


def test_an_unknown_procedure_name_rejects_its_rule(tmp_path):
    r = detect(tmp_path, udp_flow(), [nfs_rule("nfs_procedure:bogus;", 1),
                                      nfs_rule("nfs_procedure:getattr;", 2)])
    assert "sid 1: nfs_procedure: unknown NFS procedure 'bogus'" in r.proc.stderr
    assert r.sids == [2]
