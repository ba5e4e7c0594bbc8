"""asn1: BER objects decoded from the payload, matched when a node trips a check
(oversize_length, bitstring_overflow, double_overflow), from the payload's start, an
absolute_offset or a relative_offset after the previous match. Crafted SNMP-like (UDP) and
LDAP-like (TCP) messages, each check matched and near-missed, and ET Open's four GPL NETBIOS
NTLMSSP asn1 rules on SMB Session Setup requests built to their shape."""
import struct

import pytest

from detect_helpers import Conv, detect, rule, udp


def tlv(tag, body):
    """One BER element with a definite length (short or long form)."""
    n = len(body)
    if n < 0x80:
        length = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + length + body


def seq(*items):
    return tlv(0x30, b"".join(items))


def integer(v):
    return tlv(0x02, bytes([v]))


def octets(b):
    return tlv(0x04, b)


def snmp(community=b"public", extra=b"", pdu_extra=b""):
    """SEQUENCE { version, community, GetRequest [A0] { request-id, ... } } — extra goes
    into the top SEQUENCE (tested), pdu_extra into the context-tagged PDU (not descended)."""
    pdu = tlv(0xA0, integer(1) + integer(0) + integer(0) + seq(seq(tlv(0x06, b"\x2b\x06"),
                                                                     tlv(0x05, b""))) +
              pdu_extra)
    return seq(integer(1), octets(community), extra, pdu)


def snmp_pkt(msg, port=161):
    return udp(msg, sport=40001, dport=port)


def sids(tmp_path, pkts, rules):
    return detect(tmp_path, pkts, rules).sids


# --- oversize_length -----------------------------------------------------------------------

def test_oversize_length_counts_every_node_and_stops_at_the_limit(tmp_path):
    msg = snmp(community=b"c" * 150)
    top = len(msg) - 3  # the outer SEQUENCE's length (long form: 30 81 LL)
    assert msg[1] == 0x81 and msg[2] == top
    rules = [rule(f"asn1:oversize_length {top - 1};", sid=1, proto="udp"),
             rule(f"asn1:oversize_length {top};", sid=2, proto="udp"),
             rule("asn1:oversize_length 149, absolute_offset 3;", sid=3, proto="udp"),
             rule("asn1:oversize_length 150 absolute_offset 3;", sid=4, proto="udp")]
    # sid 3/4 start at the INTEGER inside: then the community string (150) is the largest
    assert sids(tmp_path, [snmp_pkt(msg)], rules) == [1, 3]


# --- bitstring_overflow --------------------------------------------------------------------

# the BIT STRING's contents: the unused-bits octet, then the bits
@pytest.mark.parametrize("bits,hit", [(b"\xff", True), (b"\x07", False),
                                      (b"\x11\x00", True), (b"\x10\x00", False)])
def test_bitstring_overflow(tmp_path, bits, hit):
    msg = snmp(extra=tlv(0x03, bits))
    rules = [rule("asn1:bitstring_overflow;", sid=1, proto="udp")]
    assert sids(tmp_path, [snmp_pkt(msg)], rules) == ([1] if hit else [])


def test_bitstring_inside_a_context_tag_is_not_descended(tmp_path):
    # as Suricata (der-parser): the [A0] PDU is left undecoded, its BIT STRING unseen
    inside = snmp(pdu_extra=tlv(0x03, b"\xff"))
    outside = snmp(extra=tlv(0x03, b"\xff"))
    rules = [rule("asn1:bitstring_overflow; content:\"|A0|\";", sid=1, proto="udp")]
    assert sids(tmp_path, [snmp_pkt(inside)], rules) == []
    assert sids(tmp_path, [snmp_pkt(outside)], rules) == [1]


# --- double_overflow -----------------------------------------------------------------------

@pytest.mark.parametrize("first,size,hit", [(0x03, 257, True), (0x03, 256, False),
                                            (0x80, 300, False), (0x41, 300, False)])
def test_double_overflow(tmp_path, first, size, hit):
    # a REAL in the decimal encoding (first octet's top bits 00) longer than 256 octets
    real = tlv(0x09, bytes([first]) + b"1" * (size - 1))
    rules = [rule("asn1:double_overflow;", sid=1, proto="udp")]
    assert sids(tmp_path, [snmp_pkt(snmp(extra=real))], rules) == ([1] if hit else [])


# --- malformed and truncated ---------------------------------------------------------------

def test_a_truncated_message_matches_nothing(tmp_path):
    msg = snmp(extra=tlv(0x03, b"\xff"))
    rules = [rule("asn1:bitstring_overflow, oversize_length 1;", sid=1, proto="udp")]
    assert sids(tmp_path, [snmp_pkt(msg[:-4])], rules) == []
    assert sids(tmp_path, [snmp_pkt(msg)], rules) == [1]


def test_indefinite_lengths_are_followed(tmp_path):
    body = integer(1) + tlv(0x03, b"\xff")
    good = b"\x30\x80" + body + b"\x00\x00"
    rules = [rule("asn1:bitstring_overflow;", sid=1, proto="udp")]
    assert sids(tmp_path, [snmp_pkt(good)], rules) == [1]
    assert sids(tmp_path, [snmp_pkt(good[:-2])], rules) == []  # no end-of-contents


# --- LDAP over TCP: the offset forms -------------------------------------------------------

def ldap_bind(name=b"cn=admin", bits=b"\x00"):
    """SEQUENCE { messageID, [APPLICATION 0] BindRequest { version, name, simple [0] },
    BIT STRING } (the BIT STRING at the top level, where it is tested)."""
    bind = tlv(0x60, integer(3) + octets(name) + tlv(0x80, b"secret"))
    return seq(integer(1), bind, tlv(0x03, bits))


def ldap_conv(payload):
    return Conv(dport=389).handshake().send(True, payload).close().pkts


@pytest.mark.parametrize("prefix,opts,hit", [
    (b"", "asn1:bitstring_overflow;", True),                       # from the start
    (b"LDAP", "asn1:bitstring_overflow;", False),                  # "LD..." is not BER
    (b"LDAP", "asn1:bitstring_overflow, absolute_offset 4;", True),
    (b"LDAP", "asn1:bitstring_overflow, absolute_offset 3;", False),
    (b"LDAP", 'content:"LDAP"; asn1:bitstring_overflow, relative_offset 0;', True),
    (b"LDAP", 'content:"LDAP"; asn1:bitstring_overflow, relative_offset -1;', False),
    (b"LDAP", 'content:"DA"; asn1:bitstring_overflow, relative_offset 1;', True),
    (b"LDAP", 'content:"|30|"; asn1:bitstring_overflow, relative_offset -1;', True),
    (b"LDAP", 'content:"AP"; asn1:bitstring_overflow, relative_offset -3;', False),
])
def test_ldap_offsets(tmp_path, prefix, opts, hit):
    bad = prefix + ldap_bind(bits=b"\xff")
    good = prefix + ldap_bind(bits=b"\x07")
    rules = [rule(opts, sid=1)]
    assert sids(tmp_path, ldap_conv(bad), rules) == ([1] if hit else [])
    assert sids(tmp_path, ldap_conv(good), rules) == []


def test_relative_offset_does_not_retry_the_content_before_it(tmp_path):
    # as Suricata: the content before asn1 does not look for its next occurrence when asn1
    # fails (sid 1); a relative option between them (isdataat, a relative content) has it
    # retried, and asn1 then decodes after the second "XX" (sids 2, 3)
    payload = b"XX" + ldap_bind(bits=b"\x00") + b"XX" + ldap_bind(bits=b"\xff")
    rules = [rule('content:"XX"; asn1:bitstring_overflow, relative_offset 0;', sid=1),
             rule('content:"XX"; isdataat:1,relative; '
                  'asn1:bitstring_overflow, relative_offset 0;', sid=2),
             rule('content:"XX"; content:"|30|"; within:1; '
                  'asn1:bitstring_overflow, relative_offset -1;', sid=3)]
    assert sids(tmp_path, ldap_conv(payload), rules) == [2, 3]


def test_oversize_application_tag_over_several_segments(tmp_path):
    # a 3000-byte BindRequest: its [APPLICATION 0] length trips oversize_length 2048 on the
    # reassembled stream, though the message came in 1000-byte segments
    payload = ldap_bind(name=b"n" * 3000)
    pkts = Conv(dport=389).handshake().send(True, payload, seg=1000).close().pkts
    rules = [rule("asn1:oversize_length 2048;", sid=1), rule("asn1:oversize_length 4000;", sid=2)]
    assert sids(tmp_path, pkts, rules) == [1]


# --- ET Open: GPL NETBIOS ... NTLMSSP asn1 overflow attempt --------------------------------

ET_445 = ('content:"|00|"; depth:1; content:"|FF|SMBs"; within:5; distance:3; '
          'byte_test:1,{uni}&,128,6,relative; byte_test:4,&,2147483648,48,relative,little; '
          'content:!"NTLMSSP"; within:7; distance:54; asn1:double_overflow, bitstring_overflow, '
          'relative_offset 54, oversize_length 2048;')
ET_139 = ('content:"|00|"; depth:1; content:"|FF|SMB"; within:4; distance:3; '
          'pcre:"/^(\\x75|\\x2d|\\x2f|\\xa2|\\x2e|\\x24|\\x74)/sR"; '
          'byte_test:1,{uni}&,128,6,relative; content:"s"; depth:1; offset:39; '
          'byte_jump:2,0,little,relative; byte_test:4,&,2147483648,21,relative,little; '
          'content:!"NTLMSSP"; within:7; distance:27; asn1:double_overflow, bitstring_overflow, '
          'relative_offset 27, oversize_length 2048;')


def et_rules(port):
    body = ET_445 if port == 445 else ET_139
    sid = (2102383, 2103003) if port == 445 else (2103001, 2103002)
    return [rule("flow:established,to_server; " + body.format(uni="!"), sid=sid[0],
                 hdr=f"any any -> any {port}"),
            rule("flow:established,to_server; " + body.format(uni=""), sid=sid[1],
                 hdr=f"any any -> any {port}")]


def smb_setup(port, blob, unicode=False):
    """A NetBIOS session message with an SMB Session Setup AndX request whose security blob
    lies where the rule of that port looks for it."""
    b = bytearray(200)
    b[4:8] = b"\xffSMB"
    b[15] = 0x80 if unicode else 0x00           # flags2, high byte: unicode strings
    if port == 445:
        b[8] = 0x73                             # Session Setup AndX
        b[57:61] = struct.pack("<I", 0x80000000)  # capabilities: extended security
        at = 63
    else:
        b[8] = 0x75                             # an AndX chain: Tree Connect first ...
        b[39] = ord("s")                        # ... then Session Setup AndX
        b[40:42] = struct.pack("<H", 4)         # skip 4 to the parameters
        b[67:71] = struct.pack("<I", 0x80000000)
        at = 73
    msg = bytes(b[:at]) + blob
    return b"\x00" + len(msg[4:]).to_bytes(3, "big") + msg[4:]


@pytest.mark.parametrize("port", [445, 139])
def test_et_ntlmssp_asn1_rules(tmp_path, port):
    spnego_overflow = tlv(0x60, tlv(0x06, b"\x2b\x06\x01\x05\x05\x02") + b"\x00" * 2100)
    bitstring = seq(tlv(0x03, b"\xff"))
    plain = tlv(0x60, tlv(0x06, b"\x2b\x06\x01\x05\x05\x02") + seq(integer(1)))
    cases = [(spnego_overflow, False, [0]), (bitstring, True, [1]), (plain, False, []),
             (b"NTLMSSP\x00" + bitstring, False, [])]  # a raw NTLMSSP blob: not this rule
    rules = et_rules(port)
    want_sids = [int(r.split("sid:")[1].split(";")[0]) for r in rules]
    for k, (blob, uni, hits) in enumerate(cases):
        pkts = Conv(dport=port).handshake().send(True, smb_setup(port, blob, uni)).close().pkts
        got = detect(tmp_path, pkts, rules, name=f"c{k}").sids
        assert got == [want_sids[h] for h in hits], (k, got)


# ---- Snort 3's ber_data / ber_skip: the BER element at the cursor ----
def name_constraints(critical=True, inner_tag=0xA1, pad=b""):
    """an X.509 nameConstraints extension: OID, [critical BOOLEAN], OCTET STRING { SEQUENCE
    { [1] { SEQUENCE { [1] rfc822Name … } } } }"""
    gen = seq(tlv(0x81, b"xn--" + b"a" * 600))  # a long name: length 0x82 0x02 0x5c
    ext = tlv(0x04, seq(tlv(inner_tag, pad + gen)))
    return b"\x06\x03\x55\x1d\x1e" + (tlv(0x01, b"\xff") if critical else b"") + ext


BER_RULE = ('content:"|06 03 55 1D 1E|"; ber_skip:0x01,optional; ber_data:0x04; '
            'ber_data:0x30; ber_data:0xa1; ber_data:0x30; content:"|81 82|",within 2; '
            'byte_test:2,>,500,0,relative; content:"xn--",within 4,distance 2;')


@pytest.mark.parametrize("body,payload,hit", [
    (BER_RULE, name_constraints(), True),
    (BER_RULE, name_constraints(critical=False), True),      # the optional element absent
    (BER_RULE, name_constraints(inner_tag=0xA0), False),     # another type
    ('content:"|06 03 55 1D 1E|"; ber_skip:0x01; ber_data:0x04;', name_constraints(False), False),
    # ber_skip moves past the element (long-form length): what follows is next
    ('content:"|06 03 55 1D 1E|"; ber_skip:0x01; ber_skip:0x04; content:"END",within 3;',
     name_constraints() + b"END", True),
    ('content:"|06 03 55 1D 1E|"; ber_skip:0x01; ber_data:0x04; content:"END",within 3;',
     name_constraints() + b"END", False),
])
def test_ber_data_and_skip(tmp_path, body, payload, hit):
    r = detect(tmp_path, Conv(dport=443).handshake().send(True, b"HDR" + payload).close().pkts,
               [rule(body + " flow:established;")])
    assert r.sids == ([1] if hit else []), body
