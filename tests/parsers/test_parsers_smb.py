"""SMB (parsers/smb, a first slice) end to end: NetBIOS-framed SMB2 and SMB1 tree connects on
any port; smb.share / smb_share and smb.named_pipe / smb_named_pipe hold the path of the
share the server accepted (a named pipe when it says so: SMB2 ShareType 2, SMB1 service
"IPC"); a refused connect gives nothing; `alert smb` and app_proto."""
import struct

import pytest

from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out


def nbss(m):
    return struct.pack(">I", len(m)) + m


def smb2(cmd, mid, body, reply=False, status=0):
    hdr = b"\xfeSMB" + struct.pack("<HHIHHIIQIIQ16s", 64, 1, status, cmd, 1, int(reply), 0,
                                   mid, 0, 0, 0, b"\0" * 16)
    return nbss(hdr + body)


def tree_req(mid, path):
    p = path.encode("utf-16-le")
    return smb2(3, mid, struct.pack("<HHHH", 9, 0, 72, len(p)) + p)


def tree_resp(mid, share_type, status=0):
    return smb2(3, mid, struct.pack("<HBBIII", 16, share_type, 0, 0, 0, 0x1f01ff),
                reply=True, status=status)


def conv(trees, dport=445):
    c = Conv(sport=50000, dport=dport).handshake()
    for mid, (path, stype, status) in enumerate(trees, 1):
        c.send(True, tree_req(mid, path)).send(False, tree_resp(mid, stype, status))
    return c.close().pkts


@pytest.mark.parametrize("body,hit", [
    ('smb.named_pipe; content:"IPC$";', True),
    ('smb_named_pipe; content:"|5c 5c|srv|5c|IPC$"; bsize:10;', True),
    ('smb.share; content:"IPC$";', False),           # a pipe is no share
    ('smb.share; content:"data";', True),
    ('smb_share; content:"$IPC";', False),           # refused: STATUS_BAD_NETWORK_NAME
])
def test_smb_tree_connect_rules(tmp_path, body, hit):
    pkts = conv([("\\\\srv\\IPC$", 2, 0), ("\\\\srv\\data", 1, 0),
                 ("\\\\srv\\$IPC", 0, 0xc00000cc)])
    r = detect(tmp_path, pkts, [rule(body, sid=1, proto="smb")])
    assert r.sids == ([1] if hit else []), body


def test_smb_off_port_and_app_proto(tmp_path):
    rules = ['alert smb any any -> any any (msg:"pipe"; smb.named_pipe; content:"IPC$"; '
             'sid:3;)']
    out = osprey_out(tmp_path, conv([("\\\\srv\\IPC$", 2, 0)], dport=4455), rules)
    (a,) = out.of("alert")
    assert a["app_proto"] == "smb" and a["alert"]["signature_id"] == 3
    (f,) = out.of("flow")
    assert f["app_proto"] == "smb"
