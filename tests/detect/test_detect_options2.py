"""Detection options of the IP header and the byte family: each option alerts on the traffic it
describes and stays quiet on a near miss (scapy traffic → `osprey -r` → exact alerts)."""
import pytest

from scapy.layers.inet import IP, UDP, IPOption_RR, IPOption_NOP, IPOption_LSRR, IPOption_EOL
from scapy.layers.inet import IPOption_SSRR, IPOption_Security, IPOption_Timestamp
from scapy.packet import Raw

from detect_helpers import detect, rule, CLI, SRV


def dgram(payload=b"hello", **ip):
    # no UDP checksum: scapy would compute a source-routed one against the last hop
    return IP(src=CLI, dst=SRV, **ip) / UDP(sport=5353, dport=53, chksum=0) / Raw(payload)


# --- fragbits ------------------------------------------------------------------------------

@pytest.mark.parametrize("arg,hits", [
    ("D", [1]),           # exactly DF: the first datagram only
    ("D+", [1, 2]),       # DF and maybe others
    ("DR*", [1, 2, 3]),   # any of DF, reserved
    ("!D", [3, 4]),       # DF not set
    ("R", [3]),           # exactly the reserved bit
    ("M", []),            # rules see reassembled datagrams: MF is never set on them
])
def test_fragbits(tmp_path, arg, hits):
    pkts = [dgram(flags="DF", id=1), dgram(flags="DF+evil", id=2), dgram(flags="evil", id=3),
            dgram(flags=0, id=4)]
    rules = [rule(f"fragbits:{arg}; id:{i};", sid=i, proto="ip") for i in range(1, 5)]
    assert detect(tmp_path, pkts, rules).sids == hits


def test_fragbits_on_a_fragmented_datagram_sees_the_reassembled_header(tmp_path):
    from scapy.layers.inet import fragment
    frags = fragment(dgram(b"A" * 64, id=7), fragsize=16)
    rules = [rule("fragbits:M;", sid=1, proto="udp"),
             rule("fragbits:!M; content:\"AAAA\";", sid=2, proto="udp")]
    assert detect(tmp_path, frags, rules).sids == [2]


# --- fragoffset ----------------------------------------------------------------------------

@pytest.mark.parametrize("arg,hits", [("0", [1]), ("!0", []), (">0", []), ("<1", [1])])
def test_fragoffset(tmp_path, arg, hits):
    # an unfragmented datagram and a reassembled one both carry offset 0; a lone later
    # fragment is held by defrag and never reaches the rules
    from scapy.layers.inet import fragment
    frags = fragment(dgram(b"B" * 64, id=9), fragsize=16)
    pkts = [dgram(b"hello")] + frags[1:]  # the datagram never completes
    assert detect(tmp_path, pkts, [rule(f"fragoffset:{arg};", sid=1, proto="udp")]).sids == hits


# --- ipopts --------------------------------------------------------------------------------

def opt_pkts():
    return [
        dgram(id=1, options=[IPOption_RR(routers=["1.2.3.4"])]),
        dgram(id=2, options=[IPOption_NOP(), IPOption_LSRR(routers=["1.2.3.4"])]),
        dgram(id=3, options=[IPOption_SSRR(routers=["1.2.3.4"]), IPOption_EOL()]),
        dgram(id=4, options=[IPOption_Timestamp(flg=0, length=8, timestamp=[0])]),
        dgram(id=5),
    ]


@pytest.mark.parametrize("arg,ids", [
    ("rr", [1]), ("nop", [2]), ("lsrr", [2]), ("lsrre", [2]), ("ssrr", [3]),
    ("eol", [1, 3]),  # scapy pads a 7-byte record route with an EOL
    ("ts", [4]), ("sec", []), ("satid", []), ("esec", []), ("any", [1, 2, 3, 4]),
])
def test_ipopts(tmp_path, arg, ids):
    rules = [rule(f"ipopts:{arg}; id:{i};", sid=i, proto="ip") for i in range(1, 6)]
    assert detect(tmp_path, opt_pkts(), rules).sids == ids


def test_ipopts_security_and_a_truncated_option_list(tmp_path):
    # option 130 (security), then a record route whose length runs past the header: the walk
    # stops there, so rr is not found
    sec = dgram(id=1, options=[IPOption_Security(length=11)])
    bad = dgram(id=2, options=[Raw(b"\x07\x30\x04\x00")])
    rules = [rule("ipopts:sec;", sid=1, proto="ip"), rule("ipopts:rr;", sid=2, proto="ip")]
    assert detect(tmp_path, [sec, bad], rules).sids == [1]


# --- byte_extract, byte_math: variables for the options after them --------------------------

BYTE_CASES = [
    # the cursor moves past the extracted byte: distance counts from there
    ("extract-distance", 'byte_extract:1,0,len; content:"xyz"; distance:len; within:3;',
     b"\x05HELLOxyz", b"\x04HELLOxyz"),
    ("extract-offset-depth", 'byte_extract:1,0,o,string,dec; content:"ab"; offset:o; depth:2;',
     b"5xxxxab", b"4xxxxab"),
    ("extract-byte_test-value", "byte_extract:2,0,lim; byte_test:2,>,lim,2;",
     b"\x00\x10\x00\x20", b"\x00\x30\x00\x20"),
    ("extract-byte_jump-offset", 'byte_extract:1,0,off; byte_jump:1,off; content:"Z"; within:1;',
     b"\x02a\x03bcdZ", b"\x02a\x02bcdZ"),
    ("extract-multiplier", "byte_extract:1,0,n,multiplier 4; byte_test:1,=,n,1;",
     b"\x03\x0c", b"\x03\x03"),
    ("extract-align", "byte_extract:1,0,n,align 4; byte_test:1,=,n,1;",
     b"\x05\x08", b"\x05\x05"),
    ("extract-isdataat", "byte_extract:1,0,n; isdataat:n;",
     b"\x05abcde", b"\x06abcde"),
    ("math-mul", "byte_math:bytes 1, offset 0, oper *, rvalue 2, result dbl; byte_test:1,=,dbl,1;",
     b"\x03\x06", b"\x03\x07"),
    ("math-rvalue-var",
     "byte_extract:1,0,a; byte_math:bytes 1, offset 1, oper +, rvalue a, result s; "
     "byte_test:1,=,s,2;",
     b"\x02\x03\x05", b"\x02\x03\x06"),
    ("math-div-by-zero-var",
     "byte_extract:1,0,a; byte_math:bytes 1, offset 1, oper /, rvalue a, result q; "
     "byte_test:1,=,q,2;",
     b"\x02\x08\x04", b"\x00\x08\x00"),
    # the first K's length points nowhere; the run backtracks to the second K
    ("extract-backtracks",
     'content:"K"; byte_extract:1,0,n,relative; content:"Q"; distance:n; within:1;',
     b"K\x05aaaaaaK\x01bQ", b"K\x05aaaaaaK\x02bQ"),
]


@pytest.mark.parametrize("body,hit,miss", [c[1:] for c in BYTE_CASES],
                         ids=[c[0] for c in BYTE_CASES])
def test_byte_variables(tmp_path, body, hit, miss):
    rules = [rule(body, sid=1, proto="udp")]
    r = detect(tmp_path, [dgram(hit)], rules, name="hit")
    assert "not compiled" not in r.proc.stderr
    assert r.sids == [1]
    assert detect(tmp_path, [dgram(miss)], rules, name="miss").sids == []


def test_byte_extract_on_the_tcp_stream(tmp_path):
    from detect_helpers import Conv
    # the length prefix and the record arrive in two segments: the stream holds both
    body = 'content:"LEN"; byte_extract:2,0,n,relative; content:"END"; distance:n; within:3;'
    hit = Conv().handshake().send(True, b"LEN\x00\x04abcdEND", seg=6).close().pkts
    miss = Conv().handshake().send(True, b"LEN\x00\x03abcdEND", seg=6).close().pkts
    rules = [rule(body, sid=1)]
    assert detect(tmp_path, hit, rules, name="hit").sids == [1]
    assert detect(tmp_path, miss, rules, name="miss").sids == []


def test_byte_variables_with_dce_read_dcerpc_only(tmp_path):
    # dce makes the rule a DCERPC one (Suricata): bytes that would match elsewhere do not
    # (tests/parsers/test_parsers_dcerpc.py has it on DCERPC stubs)
    r = detect(tmp_path, [dgram(b"\x01\x01")],
               [rule("byte_extract:1,0,n,dce; byte_test:1,=,n,1;", sid=1, proto="udp"),
                rule("byte_extract:1,0,n; byte_test:1,=,n,1;", sid=2, proto="udp")])
    assert r.sids == [2]
    assert "unsupported" not in r.proc.stderr
