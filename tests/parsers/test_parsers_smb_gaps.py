"""SMB's gaps (parsers/smb/): Suricata's SMB parser accepts gaps and finds its records again
(a NetBIOS header followed by an SMB magic); so does Osprey (`smb_gaps`). A hole in a WRITE
(the file written around it is truncated, the writes and the close after it are read), a hole
in a server's answer (the next answer is read: its share), a hole in a named pipe's bytes
(DCERPC over SMB: the next PDU is read) — exact alerts, records against Suricata's EVE schema,
counters."""
import struct

from detect_helpers import Conv, rule
from gap_helpers import eve_run
from test_parsers_smb_commands import FID, pipe_conv, session, smb2


class HoleConv(Conv):
    """A Conv whose send of the bytes `target` loses target[a:b] (acknowledged past)."""

    def __init__(self, target, a, b, **kw):
        super().__init__(**kw)
        self.target, self.a, self.b = target, a, b

    def send(self, client, data, seg=None, order=None):
        if data != self.target:
            return super().send(client, data, seg, order)
        super().send(client, data[:self.a])
        super().send(client, data[self.a:self.b], seg=self.b - self.a, order=[])
        return super().send(client, data[self.b:])


def write(mid, off, data):
    return smb2(9, mid, struct.pack("<HHIQ16sIIHHI", 49, 64 + 48, len(data), off, FID, 0, 0, 0,
                                    0, 0) + data)


PIECES = [b"FIRST-PIECE " * 8, b"SECOND-LOST " * 8, b"THIRD-PIECE " * 8]
RULES = [rule('file.data; content:"FIRST-PIECE";', sid=1, proto="smb"),
         rule('file.data; content:"SECOND-LOST";', sid=2, proto="smb"),
         rule('file.data; content:"THIRD-PIECE";', sid=3, proto="smb"),
         rule('smb.share; content:"smb2";', sid=4, proto="smb"),
         rule('filename:"report.txt";', sid=5, proto="smb")]


def write_session(conv):
    offs = [0, len(PIECES[0]), len(PIECES[0]) * 2]
    return session(conv.handshake(), "\\\\10.0.0.12\\smb2", 1, "report.txt",
                   writes=list(zip(offs, PIECES))).close().pkts


def test_a_hole_in_a_write_truncates_the_file_and_resyncs(tmp_path):
    lost = write(5, len(PIECES[0]), PIECES[1])
    pkts = write_session(HoleConv(lost, 30, 140, sport=50000, dport=445))
    r = eve_run(tmp_path, pkts, RULES, ["smb", "files"])
    # the second write is lost (its message dropped); the third and the close after it are
    # read: file.data holds the first and third pieces at their offsets (the hole as zeros)
    assert r.sids == [1, 3, 4, 5]
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["filename"], f["fileinfo"]["state"]) == ("report.txt", "TRUNCATED")
    assert r.counters("smb")["smb_gaps"] == 1
    cmds = [s["smb"]["command"] for s in r.of("smb")]
    assert cmds[-1] == "SMB2_COMMAND_CLOSE" and "SMB2_COMMAND_WRITE" in cmds


def test_a_hole_in_an_answer_resyncs_on_the_next(tmp_path):
    # the session setup's answer loses its middle: the tree connect's answer after it is read
    lost = smb2(1, 1, struct.pack("<HHHH", 9, 0, 0, 0), reply=True)
    pkts = write_session(HoleConv(lost, 8, 50, sport=50000, dport=445))
    r = eve_run(tmp_path, pkts, RULES, ["smb", "files"])
    assert r.sids == [1, 2, 3, 4, 5]
    assert r.counters("smb")["smb_gaps"] == 1
    (tree,) = [s["smb"] for s in r.of("smb") if s["smb"]["command"] ==
               "SMB2_COMMAND_TREE_CONNECT"]
    assert tree["share"] == "\\\\10.0.0.12\\smb2" and tree["status"] == "STATUS_SUCCESS"
    # the session setup's transaction never got its answer: reported at the flow's end
    (setup,) = [s["smb"] for s in r.of("smb") if s["smb"]["command"] ==
                "SMB2_COMMAND_SESSION_SETUP"]
    assert "status" not in setup
    (f,) = r.of("fileinfo")
    assert f["fileinfo"]["state"] == "CLOSED"


def test_a_hole_in_a_pipe_write_resyncs_dcerpc_over_smb(tmp_path):
    # the bind's write loses its middle: the bind is lost (no interface is bound), the
    # request after it is still read (its opnum), as SMB finds its next message
    pkts = pipe_conv(opnum=15)
    rules = [rule("flow:to_server; dcerpc.opnum:15;", sid=1, proto="smb"),
             rule("flow:to_server; dcerpc.iface:367abb81-9844-35f1-ad32-98f038001003;", sid=2,
                  proto="smb"),
             rule('flow:to_server; dcerpc.stub_data; content:"stub";', sid=3, proto="smb")]
    base = eve_run(tmp_path, pkts, rules, ["smb"], name="whole")
    assert base.sids == [1, 2, 3]
    # the segment carrying the bind's write is dropped; the server's acknowledgement after
    # it goes past it: a hole
    (i,) = [k for k, p in enumerate(pkts) if p.haslayer("Raw") and
            b"\x05\x00\x0b\x03" in bytes(p["Raw"].load)]
    r = eve_run(tmp_path, pkts[:i] + pkts[i + 1:], rules, ["smb"], name="gap")
    assert r.sids == [1, 3]
    assert r.counters("smb")["smb_gaps"] == 1


# ---- limits (smb/README.md: SMB_PENDING_MAX, SMB_MSG_MAX, SMB_FILES_MAX, SMB_FILE_MAX) ----

def echo(mid):
    return smb2(13, mid, struct.pack("<HH", 4, 0))


def test_requests_waiting_past_64_are_shed(tmp_path):
    c = Conv(sport=50000, dport=445).handshake()
    session(c, "\\\\10.0.0.12\\smb2", 1, "report.txt", writes=[(0, PIECES[0])])
    c.send(True, b"".join(echo(100 + i) for i in range(70))).close()
    r = eve_run(tmp_path, c.pkts, RULES, ["smb", "files"])
    assert r.sids == [1, 4, 5]
    assert r.counters("smb")["smb_pending_shed"] == 6
    # (SMB2 ECHO is Suricata's SMB2_COMMAND_KEEPALIVE) each of the 70 is reported without
    # an answer: the 6 shed when they are, the 64 kept at the flow's end
    echoes = [s["smb"] for s in r.of("smb") if s["smb"]["command"] == "SMB2_COMMAND_KEEPALIVE"]
    assert len(echoes) == 70 and not any("status" in s for s in echoes)


def test_a_message_past_256kib_is_cut(tmp_path):
    # a WRITE of 300 KiB in one message: its first 256 KiB are read (smb.record_overflow,
    # the rest counted); the file's bytes past the cut are not seen: it is truncated
    big = b"W" * (300 << 10)
    c = Conv(sport=50000, dport=445).handshake()
    session(c, "\\\\10.0.0.12\\smb2", 1, "big.bin", writes=[])
    msg = write(50, 0, big)
    for i in range(0, len(msg), 32768):
        c.send(True, msg[i:i + 32768], seg=1400)
    c.close()
    rules = ['alert smb any any -> any any (msg:"overflow"; '
             'app-layer-event:smb.record_overflow; sid:1;)']
    r = eve_run(tmp_path, c.pkts, rules, ["smb", "files"], "--set",
                "stream.reassembly.depth=4mb")
    assert r.sids == [1]
    assert r.counters("smb")["smb_message_bytes_shed"] == len(msg) - 4 - (256 << 10)


def test_files_open_past_32_are_shed(tmp_path):
    c = Conv(sport=50000, dport=445).handshake()
    session(c, "\\\\10.0.0.12\\smb2", 1, "f0.txt")  # (opened and closed)
    for i in range(34):
        n = ("f%d.txt" % i).encode("utf-16-le")
        fid = struct.pack("<QQ", 0x100 + i, 0xffffffff00000009)
        create = struct.pack("<HBBIQQIIIIIHHII", 57, 0, 0, 2, 0, 0, 0x12019f, 0x80, 7, 2,
                             0x40, 120, len(n), 0, 0)
        c.send(True, smb2(5, 200 + i, create + n))
        c.send(False, smb2(5, 200 + i, struct.pack("<HBBI", 89, 0, 0, 2) + b"\0" * 56 + fid +
                           b"\0" * 8, reply=True))
    c.close()
    r = eve_run(tmp_path, c.pkts, [], ["smb"])
    assert r.counters("smb")["smb_files_shed"] == 2


def test_a_file_past_1mib_keeps_1mib_for_file_data(tmp_path):
    chunk = b"F" * 32768
    writes = [(i * 32768, chunk) for i in range(32)] + [(1 << 20, b"TAIL-MARKER")]
    c = Conv(sport=50000, dport=445).handshake()
    pkts = session(c, "\\\\10.0.0.12\\smb2", 1, "big.bin", writes=writes).close().pkts
    rules = [rule('file.data; content:"TAIL-MARKER";', sid=1, proto="smb"),
             rule("filesize:%d;" % ((1 << 20) + 11), sid=2, proto="smb")]
    r = eve_run(tmp_path, pkts, rules, ["files"], "--set", "stream.reassembly.depth=4mb")
    assert r.sids == [2]  # file.data holds 1 MiB; the file is whole
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("CLOSED", (1 << 20) + 11)
    assert r.counters("smb")["smb_file_bytes_shed"] == 11


def test_a_lost_pipe_write_inside_a_pdu_resyncs_dcerpc(tmp_path):
    # a request PDU split over two pipe writes whose first write is lost: DCERPC over SMB
    # finds the next PDU (the next request) rather than reading the second half as a header
    from test_parsers_smb_commands import IFACE, NDR, dce
    import uuid
    ctx = struct.pack("<HBB", 0, 1, 0) + uuid.UUID(IFACE).bytes_le + struct.pack("<HH", 2, 0) \
        + NDR
    bind = dce(11, 1, struct.pack("<HHIB3s", 4280, 4280, 0, 1, b"\0" * 3) + ctx)
    ack = dce(12, 1, struct.pack("<HHIH", 4280, 4280, 0x1234, 0) + b"\0\0" +
              struct.pack("<B3s", 1, b"\0" * 3) + struct.pack("<HH", 0, 0) + NDR)
    lost_req = dce(0, 2, struct.pack("<IHH", 40, 0, 14) + b"L" * 40)
    req = dce(0, 3, struct.pack("<IHH", 4, 0, 15) + b"stub")
    resp = dce(2, 3, struct.pack("<IHBB", 4, 0, 0, 0) + b"okay")
    c = Conv(sport=50001, dport=445).handshake()
    pkts = session(c, "\\\\10.0.0.12\\IPC$", 2, "svcctl",
                   pipe_pdus=[(bind, ack), (lost_req[:30], b""), (lost_req[30:], b""),
                              (req, resp)]).close().pkts
    # the segment carrying the write of lost_req's first 30 bytes is dropped (a hole)
    (i,) = [k for k, p in enumerate(pkts) if p.haslayer("Raw") and
            lost_req[:30] in bytes(p["Raw"].load)]
    rules = [rule("flow:to_server; dcerpc.opnum:15;", sid=1, proto="smb"),
             rule("flow:to_server; dcerpc.opnum:14;", sid=2, proto="smb"),
             rule('flow:to_client; dcerpc.stub_data; content:"okay";', sid=3, proto="smb")]
    r = eve_run(tmp_path, pkts[:i] + pkts[i + 1:], rules, ["smb"])
    assert r.sids == [1, 3]
    assert r.counters("smb")["smb_gaps"] == 1
    assert r.counters("dcerpc")["dcerpc_gaps"] == 1
    assert r.counters("dcerpc")["dcerpc_malformed"] == 0
