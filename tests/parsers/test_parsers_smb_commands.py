"""SMB (parsers/smb) commands end to end: an SMB2 session (negotiate, session setup with
NTLMSSP, tree connect, create, writes in pieces, close) whose file is `file_data` on `alert
smb` rules, smb.version, smb.ntlmssp_user; DCERPC over a named pipe matching dcerpc.iface /
dcerpc.opnum on `alert smb`, `alert dcerpc` and `alert tcp` rules; the smb.file_overlap
event; the EVE smb records (Suricata's field names, validated against its EVE schema)."""
import json
import struct
import uuid

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out

EICAR = b"X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*"
IFACE = "367abb81-9844-35f1-ad32-98f038001003"  # svcctl
NDR = uuid.UUID("8a885d04-1ceb-11c9-9fe8-08002b104860").bytes_le + struct.pack("<HH", 2, 0)
FID = struct.pack("<QQ", 0x4d, 0xffffffff00000009)
SESSION = 4398046511109


def smb2(cmd, mid, body, reply=False, status=0, tree=1):
    hdr = b"\xfeSMB" + struct.pack("<HHIHHIIQIIQ16s", 64, 1, status, cmd, 1, int(reply), 0,
                                   mid, 0, tree, SESSION, b"\0" * 16)
    m = hdr + body
    return struct.pack(">I", len(m)) + m


def ntlm_auth(domain, user, host):
    fields, data, at = b"", b"", 72
    for s in (domain, user, host):
        b = s.encode("utf-16-le")
        fields += struct.pack("<HHI", len(b), len(b), at)
        data += b
        at += len(b)
    msg = b"NTLMSSP\0" + struct.pack("<I", 3) + b"\0" * 16 + fields + b"\0" * 8 + \
        struct.pack("<I", 1) + b"\0" * 8 + data
    return msg


def session(c, share, share_type, name, writes=(), pipe_pdus=()):
    """negotiate, session setup, tree connect, create; writes (offset, bytes); pipe PDUs
    (request bytes, answer bytes) through write / read; close"""
    c.send(True, smb2(0, 0, struct.pack("<HHHHI16sQ", 36, 1, 1, 0, 0, b"\0" * 16, 0) +
                      struct.pack("<H", 0x0202)))
    c.send(False, smb2(0, 0, struct.pack("<HHH", 65, 1, 0x0202) + b"\0" * 58, reply=True))
    blob = ntlm_auth("CONTOSO", "Administrator", "SERVER01")
    c.send(True, smb2(1, 1, struct.pack("<HBBIIHHQ", 25, 0, 1, 0, 0, 64 + 24, len(blob), 0) +
                      blob))
    c.send(False, smb2(1, 1, struct.pack("<HHHH", 9, 0, 0, 0), reply=True))
    p = share.encode("utf-16-le")
    c.send(True, smb2(3, 2, struct.pack("<HHHH", 9, 0, 72, len(p)) + p))
    c.send(False, smb2(3, 2, struct.pack("<HBBIII", 16, share_type, 0, 0, 0, 0x1f01ff),
                       reply=True))
    n = name.encode("utf-16-le")
    create = struct.pack("<HBBIQQIIIIIHHII", 57, 0, 0, 2, 0, 0, 0x12019f, 0x80, 7, 2, 0x40,
                         120, len(n), 0, 0)
    c.send(True, smb2(5, 3, create + n))
    c.send(False, smb2(5, 3, struct.pack("<HBBI", 89, 0, 0, 2) + b"\0" * 56 + FID +
                       b"\0" * 8, reply=True))
    mid = 4
    for off, data in writes:
        c.send(True, smb2(9, mid, struct.pack("<HHIQ16sIIHHI", 49, 64 + 48, len(data), off,
                                              FID, 0, 0, 0, 0, 0) + data))
        c.send(False, smb2(9, mid, struct.pack("<HHIII", 17, 0, len(data), 0, 0), reply=True))
        mid += 1
    for req, ans in pipe_pdus:
        c.send(True, smb2(9, mid, struct.pack("<HHIQ16sIIHHI", 49, 64 + 48, len(req), 0,
                                              FID, 0, 0, 0, 0, 0) + req))
        c.send(False, smb2(9, mid, struct.pack("<HHIII", 17, 0, len(req), 0, 0), reply=True))
        mid += 1
        c.send(True, smb2(8, mid, struct.pack("<HBBIQ16sIIIHH", 49, 0, 0, 4096, 0, FID, 0, 0,
                                              0, 0, 0) + b"\0"))
        c.send(False, smb2(8, mid, struct.pack("<HBBIII", 17, 80, 0, len(ans), 0, 0) + ans,
                           reply=True))
        mid += 1
    c.send(True, smb2(6, mid, struct.pack("<HHI16s", 24, 0, 0, FID)))
    c.send(False, smb2(6, mid, struct.pack("<HHI", 60, 0, 0) + b"\0" * 52, reply=True))
    return c


def file_conv(writes):
    c = Conv(sport=50000, dport=445).handshake()
    return session(c, "\\\\10.0.0.12\\smb2", 1, "eicar.txt", writes=writes).close().pkts


def dce(ptype, call_id, body):
    return struct.pack("<BBBB4sHHI", 5, 0, ptype, 3, b"\x10\0\0\0", 16 + len(body), 0,
                       call_id) + body


def pipe_conv(opnum=15):
    ctx = struct.pack("<HBB", 0, 1, 0) + uuid.UUID(IFACE).bytes_le + struct.pack("<HH", 2, 0) \
        + NDR
    bind = dce(11, 1, struct.pack("<HHIB3s", 4280, 4280, 0, 1, b"\0" * 3) + ctx)
    ack = dce(12, 1, struct.pack("<HHIH", 4280, 4280, 0x1234, 0) + b"\0\0" +
              struct.pack("<B3s", 1, b"\0" * 3) + struct.pack("<HH", 0, 0) + NDR)
    req = dce(0, 2, struct.pack("<IHH", 4, 0, opnum) + b"stub")
    resp = dce(2, 2, struct.pack("<IHBB", 4, 0, 0, 0) + b"okay")
    c = Conv(sport=50001, dport=445).handshake()
    return session(c, "\\\\10.0.0.12\\IPC$", 2, "svcctl",
                   pipe_pdus=[(bind, ack), (req, resp)]).close().pkts


@pytest.mark.parametrize("body,hit", [
    ('file_data; content:"EICAR-STANDARD"; sid:1;', True),
    ('file.data; content:"X5O!P"; startswith; sid:1;', True),
    ('file_data; content:"EICAR-NONSTANDARD"; sid:1;', False),
    ('flow:to_client; file_data; content:"EICAR"; sid:1;', False),  # written, not read
])
def test_smb_file_data(tmp_path, body, hit):
    pkts = file_conv([(0, EICAR[:20]), (20, EICAR[20:])])  # two writes at their offsets
    assert detect(tmp_path, pkts, [f"alert smb any any -> any any ({body})"]).sids == \
        ([1] if hit else [])


def test_smb_file_overlap_event(tmp_path):
    rules = ['alert smb any any -> any any (msg:"overlap"; app-layer-event:smb.file_overlap; '
             'sid:2;)',
             'alert smb any any -> any any (file_data; content:"X5O!P"; startswith; sid:1;)']
    # one byte at 0, then the whole file at 0: the first byte stays ("Y5O!P…"), the event is
    # raised
    # (with the write, and again with its answer, as Suricata's transaction events)
    r = detect(tmp_path, file_conv([(0, b"Y"), (0, EICAR)]), rules)
    assert r.sids == [2, 2]


@pytest.mark.parametrize("body,hit", [
    ("smb.version:2;", True),
    ("smb.version:1;", False),
    ("smb.version:!1;", True),
])
def test_smb_version(tmp_path, body, hit):
    r = detect(tmp_path, file_conv([(0, EICAR)]),
               [f"alert smb any any -> any any (flow:to_server; {body} sid:1;)"])
    assert (len(r.sids) > 0) == hit  # each SMB2 request: a transaction
    if hit:
        assert r.sids == [1] * 6  # negotiate, session setup, tree, create, write, close


def test_smb_ntlmssp_buffers(tmp_path):
    rules = ['alert smb any any -> any any (smb.ntlmssp_user; content:"Administrator"; '
             'sid:1;)',
             'alert smb any any -> any any (smb.ntlmssp_domain; content:"CONTOSO"; sid:2;)',
             'alert smb any any -> any any (smb.ntlmssp_user; content:"guest"; sid:3;)']
    assert detect(tmp_path, file_conv([]), rules).sids == [1, 2]


def test_dcerpc_over_smb_pipe(tmp_path):
    rules = [f"alert smb any any -> any any (flow:to_server; dcerpc.iface:{IFACE}; "
             f"dcerpc.opnum:15; sid:1;)",
             f"alert dcerpc any any -> any any (flow:to_server; dcerpc.iface:{IFACE}; "
             f"dcerpc.opnum:15; sid:2;)",
             f"alert tcp any any -> any any (flow:to_server; dcerpc.iface:{IFACE}; "
             f"dcerpc.opnum:15; sid:3;)",
             f"alert smb any any -> any any (dcerpc.opnum:16; sid:4;)",
             'alert smb any any -> any any (flow:to_server; dcerpc.stub_data; content:"stub"; '
             'sid:5;)',
             # a pipe's bytes are no file
             'alert smb any any -> any any (file_data; content:"stub"; sid:6;)']
    assert sorted(detect(tmp_path, pipe_conv(), rules).sids) == [1, 2, 3, 5]


def test_smb_eve_records(tmp_path):
    rules = ['alert smb any any -> any any (flow:to_server; file_data; content:"EICAR"; '
             'sid:1;)',
             f"alert smb any any -> any any (flow:to_server; dcerpc.iface:{IFACE}; sid:2;)"]
    # the file in two writes: one transaction (Suricata's per file and direction), one record
    out = osprey_out(tmp_path, file_conv([(0, EICAR[:30]), (30, EICAR[30:])]) + pipe_conv(),
                     rules, "--set",
                     "outputs.eve-log.types=[alert,flow,smb]")
    recs = out.of("smb")
    by_cmd = {}
    for r in recs:
        by_cmd.setdefault((r["flow_id"], r["smb"]["command"]), []).append(r["smb"])
    flows = sorted({r["flow_id"] for r in recs})
    assert len(flows) == 2 and len(recs) == 6 + 9  # the pipe: two writes and two reads
    first = flows[0]
    (ss,) = by_cmd[(first, "SMB2_COMMAND_SESSION_SETUP")]
    assert ss["ntlmssp"] == {"domain": "CONTOSO", "user": "Administrator", "host": "SERVER01"}
    assert ss["dialect"] == "2.02" and ss["status"] == "STATUS_SUCCESS"
    assert ss["session_id"] == SESSION
    (tc,) = by_cmd[(first, "SMB2_COMMAND_TREE_CONNECT")]
    assert tc["share"] == "\\\\10.0.0.12\\smb2" and tc["share_type"] == "FILE"
    (cr,) = by_cmd[(first, "SMB2_COMMAND_CREATE")]
    assert cr["filename"] == "eicar.txt" and cr["disposition"] == "FILE_CREATE"
    assert cr["fuid"] == "0000004d-0000-0000-0009-0000ffffffff"
    (wr,) = by_cmd[(first, "SMB2_COMMAND_WRITE")]
    assert wr["filename"] == "eicar.txt" and wr["status_code"] == "0x0"
    (pipe,) = by_cmd[(flows[1], "SMB2_COMMAND_TREE_CONNECT")]
    assert pipe["named_pipe"] == "\\\\10.0.0.12\\IPC$" and pipe["share_type"] == "PIPE"
    reads = by_cmd[(flows[1], "SMB2_COMMAND_READ")]
    assert reads[1]["dcerpc"]["opnum"] == 15
    assert reads[1]["dcerpc"]["interfaces"] == [{"uuid": IFACE, "version": "2.0"}]
    alerts = out.of("alert")
    assert sorted(a["alert"]["signature_id"] for a in alerts) == [1, 2]
    assert all(a["app_proto"] == "smb" for a in alerts)
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in recs + alerts + out.of("flow"):
        assert not list(v.iter_errors(r)), list(v.iter_errors(r))


def test_dcerpc_byte_test_dce_over_smb(tmp_path):
    # the stub "stub" read little endian (the PDU's data representation) on an SMB flow
    rules = ['alert smb any any -> any any (flow:to_server; dce_stub_data; '
             'byte_test:4,=,0x62757473,0,dce; sid:1;)',
             'alert smb any any -> any any (flow:to_server; dce_stub_data; '
             'byte_test:4,=,0x73747562,0,dce; sid:2;)']
    assert detect(tmp_path, pipe_conv(), rules).sids == [1]


def test_dcerpc_off_leaves_smb_pipes_unread(tmp_path):
    # app-layer.protocols.dcerpc.enabled: no — the pipes' bytes are not DCERPC's to read
    rules = [f"alert smb any any -> any any (dcerpc.iface:{IFACE}; sid:1;)",
             'alert smb any any -> any any (smb.named_pipe; content:"IPC$"; sid:2;)']
    out = osprey_out(tmp_path, pipe_conv(), rules, "--set",
                     "app-layer.protocols.dcerpc.enabled=no")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [2]


def smb1(cmd, mid, words, data, reply=False):
    hdr = b"\xffSMB" + struct.pack("<BIBHH8sHHHHH", cmd, 0, 0x80 if reply else 0, 0xc803, 0,
                                   b"\0" * 8, 0, 0, 0xfeff, 0, mid)
    m = hdr + bytes([len(words) // 2]) + words + struct.pack("<H", len(data)) + data
    return struct.pack(">I", len(m)) + m


NEGO_REQ = smb2(0, 0, struct.pack("<HHHHI16sQ", 36, 1, 1, 0, 0, b"\0" * 16, 0) +
                struct.pack("<H", 0x0202))
BIG = 17 << 20  # past Suricata's default max-read-size / max-write-size (16 MiB)


def nego_resp(max_read=65536, max_write=65536):
    return smb2(0, 0, struct.pack("<HHHH16sIIII", 65, 1, 0x0202, 0, b"\0" * 16, 0, 65536,
                                  max_read, max_write) + b"\0" * 24, reply=True)


def read_req(mid, length):
    return smb2(8, mid, struct.pack("<HBBIQ16sIIIHH", 49, 0, 0, length, 0, FID, 0, 0, 0, 0, 0)
                + b"\0")


def read_resp(mid, length, data=b"data"):
    return smb2(8, mid, struct.pack("<HBBIII", 17, 80, 0, length, 0, 0) + data, reply=True)


def write_req(mid, length, data=b"data"):
    return smb2(9, mid, struct.pack("<HHIQ16sIIHHI", 49, 64 + 48, length, 0, FID, 0, 0, 0, 0,
                                    0) + data)


SMB_EVENTS = [f'alert smb any any -> any any (msg:"{n}"; app-layer-event:smb.{n}; sid:{s};)'
              for n, s in [("negotiate_malformed_dialects", 2225005),
                           ("read_request_too_large", 2225009),
                           ("read_response_too_large", 2225010),
                           ("write_request_too_large", 2225011),
                           ("negotiate_max_read_size_too_large", 2225012),
                           ("negotiate_max_write_size_too_large", 2225013)]]


# packets: 1-3 the TCP handshake, then each message and its ACK: 4, 6, 8, 10 …; Suricata's
# IDS model parses a message at its ACK and inspects it with that side's next packet
@pytest.mark.parametrize("msgs,want", [
    ([(True, NEGO_REQ), (False, nego_resp())], []),
    ([(True, NEGO_REQ), (False, nego_resp(max_read=BIG))], [(2225012, 9)]),
    ([(True, NEGO_REQ), (False, nego_resp(max_write=BIG))], [(2225013, 9)]),
    ([(True, read_req(5, BIG))], [(2225009, 6)]),
    ([(True, read_req(5, 4096)), (False, read_resp(5, BIG))], [(2225010, 9)]),
    ([(True, write_req(5, BIG))], [(2225011, 6)]),
    # within what the server negotiated, then past it
    ([(True, NEGO_REQ), (False, nego_resp(max_write=1000)), (True, write_req(5, 1000))], []),
    ([(True, NEGO_REQ), (False, nego_resp(max_write=1000)), (True, write_req(5, 1001))],
     [(2225011, 10)]),
    # SMB1 negotiate: an entry without name, or the answer's index past the dialects
    ([(True, smb1(0x72, 1, b"", b"\x02NT LM 0.12\0\x02\0"))], [(2225005, 6)]),
    ([(True, smb1(0x72, 1, b"", b"\x02NT LM 0.12\0")),
      (False, smb1(0x72, 1, struct.pack("<H", 0), b"", reply=True))], []),
    ([(True, smb1(0x72, 1, b"", b"\x02NT LM 0.12\0")),
      (False, smb1(0x72, 1, struct.pack("<H", 1), b"", reply=True))], [(2225005, 9)]),
])
def test_smb_size_and_dialect_events(tmp_path, msgs, want):
    c = Conv(sport=50002, dport=445).handshake()
    for client, m in msgs:
        c.send(client, m)
    r = detect(tmp_path, c.close().pkts, SMB_EVENTS)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == want
