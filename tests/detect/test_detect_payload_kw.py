"""Payload keywords and transforms of Suricata 7/8: each with traffic that matches and a near
miss (rules/compile/xform_args.c, base64.c)."""
import base64
import zlib

import pytest

from detect_helpers import Conv, detect, rule


def http(req, resp=b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"):
    return Conv().handshake().send(True, req).send(False, resp).close().pkts


def get(uri, extra=b""):
    return http(b"GET " + uri + b" HTTP/1.1\r\nHost: h\r\n" + extra + b"\r\n")


def sids(tmp_path, pkts, bodies):
    rules = [rule(f"flow:established,to_server; {b}", sid=i + 1, proto="http")
             for i, b in enumerate(bodies)]
    return detect(tmp_path, pkts, rules).sids


B64 = base64.b64encode(b"thisisatest").decode()   # dGhpc2lzYXRlc3Q=


@pytest.mark.parametrize("body,hit", [
    (f'http.uri; content:"/?arg={B64}"; from_base64:offset 6; content:"thisisatest";', True),
    ('http.uri; from_base64:offset 6; content:"thisisatest"; startswith;', True),
    ('http.uri; from_base64:offset 6, bytes 4; content:"thi"; endswith;', True),
    ('http.uri; from_base64:offset 6, bytes 4; content:"this";', False),
    ('http.uri; from_base64:offset 7; content:"thisisatest";', False),  # misaligned
    # the content before the transform inspects the URI as it was
    (f'http.uri; content:"thisisatest"; from_base64:offset 6; content:"this";', False),
    ('http.uri; from_base64:offset 6, mode strict; content:"thisisatest";', True),
])
def test_from_base64(tmp_path, body, hit):
    assert sids(tmp_path, get(f"/?arg={B64}".encode()), [body]) == ([1] if hit else [])


def test_from_base64_modes_on_spaced_base64(tmp_path):
    # "Zm 9v Ym Fy": RFC 2045 skips the spaces, RFC 4648 stops at the first, strict refuses
    pkts = get(b"/?arg=Zm%209v%20Ym%20Fy")
    bodies = [f'http.uri; from_base64:offset 6, mode {m}; content:"foobar";'
              for m in ("rfc2045", "rfc4648", "strict")]
    assert sids(tmp_path, pkts, bodies) == [1]


def test_xor(tmp_path):
    key = bytes([0x0d, 0x0a, 0xc8, 0xff])
    secret = bytes(b ^ key[i % 4] for i, b in enumerate(b"password"))
    pkts = get(b"/x", b"X-Data: " + secret.hex().encode() + b"\r\n")
    hexed = "".join(f"{b:02x}" for b in secret)
    bodies = [
        'http.header; content:"X-Data: "; xor:"0d0ac8ff"; content:"notthere";',
        # the header value is hex text here; xor a raw-bytes buffer: the request line
        f'http.request_line; xor:"0d0ac8ff"; content:"{"|" + bytes(b ^ key[i % 4] for i, b in enumerate(b"GET /x")).hex(" ") + "|"}"; startswith;',
        f'http.request_line; xor:"0d0ac8fe"; content:"{"|" + bytes(b ^ key[i % 4] for i, b in enumerate(b"GET /x")).hex(" ") + "|"}"; startswith;',
        f'http.header; content:"{hexed}";',
    ]
    assert sids(tmp_path, pkts, bodies) == [2, 4]


def test_pcrexform(tmp_path):
    pkts = get(b"/z4d4kWk.jpg")
    bodies = [
        r'http.request_line; pcrexform:"[a-zA-Z]+\s+(.*)\s+HTTP"; content:"/z4d4kWk.jpg"; '
        r'startswith; endswith;',
        r'http.request_line; pcrexform:"[a-zA-Z]+\s+(.*)\s+HTTP"; content:"GET";',
    ]
    assert sids(tmp_path, pkts, bodies) == [1]


def test_zlib_deflate_and_gunzip(tmp_path):
    text = b"This is compressed then base64-encoded\n"
    z = base64.b64encode(zlib.compress(text)).decode()
    gz_c = zlib.compressobj(wbits=31)
    gz = base64.b64encode(gz_c.compress(text) + gz_c.flush()).decode()
    pkts = get(f"/z?value={z}&g={gz}".encode())
    pre = 'http.uri; content:"/z?value="; from_base64:offset 9;'
    bodies = [
        f'{pre} zlib_deflate; content:"This is compressed then base64-encoded|0A|"; '
        'startswith; endswith;',
        f'{pre} zlib_deflate:max-size 8; content:"This is "; startswith; endswith;',
        f'{pre} zlib_deflate:max-size 8; content:"This is c";',
        f'{pre} gunzip; content:"This is";',      # zlib data is not gzip
    ]
    assert sids(tmp_path, pkts, bodies) == [1, 2]
    gpre = f'http.uri; content:"&g="; from_base64:offset {len("/z?value=") + len(z) + 3};'
    assert sids(tmp_path, pkts, [f'{gpre} gunzip; content:"compressed";']) == [1]


# --- base64_decode / base64_data -------------------------------------------------------------

@pytest.mark.parametrize("body,hit", [
    ('http.uri; content:"q="; base64_decode:relative; base64_data; content:"thisisatest";',
     True),
    ('http.uri; content:"q="; base64_decode:relative; base64_data; content:"nothere";', False),
    # the decoded bytes start at 0: startswith, depth
    ('http.uri; content:"q="; base64_decode:relative; base64_data; content:"this"; startswith;',
     True),
    ('http.uri; content:"q="; base64_decode:relative; base64_data; content:"is"; depth:2;',
     False),
    # bytes: that many base64 characters (4 → 3 bytes), offset: skipped before decoding
    ('http.uri; content:"q="; base64_decode:bytes 4,relative; base64_data; content:"thi"; '
     'endswith;', True),
    ('http.uri; content:"q="; base64_decode:bytes 4,relative; base64_data; content:"this";',
     False),
    ('http.uri; content:"q="; base64_decode:offset 4,relative; base64_data; content:"sisatest";',
     True),
    # not relative: from the buffer's start, "/b64?q=…" is not base64 past "/"
    ('http.uri; content:"q="; base64_decode; base64_data; content:"thisisatest";', False),
    ('http.uri; content:"q="; base64_decode:offset 7; base64_data; content:"thisisatest";',
     True),
    # decoding stops at the first character outside the alphabet ('&')
    ('http.uri; content:"q="; base64_decode:relative; base64_data; content:"thisisatest"; '
     'endswith;', True),
    ('http.uri; content:"q="; base64_decode:relative; base64_data; isdataat:11;', False),
    # pcre and byte_test read the decoded bytes too
    ('http.uri; content:"q="; base64_decode:relative; base64_data; pcre:"/^this(is)+a/";', True),
    ('http.uri; content:"q="; base64_decode:relative; base64_data; byte_test:1,=,0x74,0;', True),
    ('http.uri; content:"q="; base64_decode:relative; base64_data; byte_test:1,=,0x75,0;', False),
])
def test_base64_decode_on_an_http_buffer(tmp_path, body, hit):
    assert sids(tmp_path, get(f"/b64?q={B64}&x=1".encode()), [body]) == ([1] if hit else [])


def test_base64_decode_backtracks_to_the_next_occurrence(tmp_path):
    # the first "q=" is followed by junk: the content's next occurrence is tried
    pkts = get(f"/b64?q=!!&q={B64}".encode())
    body = 'http.uri; content:"q="; base64_decode:relative; base64_data; content:"thisisatest";'
    assert sids(tmp_path, pkts, [body]) == [1]


def test_base64_decode_on_the_stream_and_an_et_style_body(tmp_path):
    payload = base64.b64encode(b"\x78\x9f\x3e\x22 rest of the object").decode()
    pkts = http(b"POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: %d\r\n\r\n"
                % (len(payload) + 5) + b"data=" + payload.encode())
    et = ('http.request_body; content:"data="; startswith; base64_decode:offset 0,relative; '
          'base64_data; content:"|78 9f 3e 22|"; startswith;')
    near = et.replace("78 9f", "78 9e")
    tcp = rule('flow:established,to_server; content:"data="; base64_decode:relative; '
               'base64_data; content:"rest of"; ', sid=3)
    rules = [rule(f"flow:established,to_server; {et}", sid=1, proto="http"),
             rule(f"flow:established,to_server; {near}", sid=2, proto="http"), tcp]
    assert detect(tmp_path, pkts, rules).sids == [1, 3]


# --- argument forms --------------------------------------------------------------------------

def test_pcre_without_quotes(tmp_path):
    # Suricata reads pcre:/regex/flags; as pcre:"/regex/flags";
    pkts = get(b"/one/two")
    rules = [rule('pcre:/one/U;', sid=1), rule('pcre:/^\\/one\\/t/U;', sid=2),
             rule('pcre:/three/U;', sid=3), rule('pcre:!/three/U; content:"two";', sid=4)]
    assert detect(tmp_path, pkts, rules).sids == [1, 2, 4]


# --- prefilter, bypass, requires ---------------------------------------------------------------

def test_prefilter_and_bypass_change_no_match(tmp_path):
    pkts = get(b"/index.html")
    rules = [rule('content:"GET "; prefilter;', sid=1), rule('content:"PUT "; prefilter;', sid=2),
             rule('bypass; content:"GET ";', sid=3),
             rule('http.host; bypass; content:"h"; bsize:1;', sid=4, proto="http"),
             rule('http.host; bypass; content:"x";', sid=5, proto="http"),
             rule('flow:to_server; content:"HTTP/1.1"; bypass;', sid=6)]
    assert detect(tmp_path, pkts, rules).sids == [1, 3, 4, 6]


def test_requires_skips_rules_quietly(tmp_path):
    pkts = get(b"/index.html")
    rules = [
        rule('requires: version >= 7.0.3; content:"GET ";', sid=1),
        rule('requires: version >= 9; content:"GET ";', sid=2),
        # a rule for a newer engine: its unknown keyword is no error when requires is not met
        rule('requires: keyword http.future_thing; http.future_thing; content:"x";', sid=3),
        rule('requires: keyword base64_data, feature geoip; content:"GET ";', sid=4),
        rule('requires: feature lua; content:"GET ";', sid=5),
        rule('requires: version >= 7 < 8 | >= 8.0.0; content:"GET ";', sid=6),
        rule('requires: version >= 7 < 8; content:"GET ";', sid=7),
    ]
    r = detect(tmp_path, pkts, rules)
    assert r.sids == [1, 4, 6]
    assert "sid 2" not in r.proc.stdout + r.proc.stderr
    assert "sid 3" not in r.proc.stdout + r.proc.stderr


def test_requires_in_check_mode(tmp_path):
    from rules_helpers import osprey, parse_check
    f = tmp_path / "r.rules"
    f.write_text("\n".join([
        rule('requires: version >= 9; nonsense.keyword;', sid=1),
        rule('requires: version >> 7; content:"a";', sid=2),
        rule('requires: version >= 8; content:"a";', sid=3),
    ]) + "\n")
    proc = osprey("-T", "-S", str(f))
    lines, s, reasons, _ = parse_check(proc.stdout)
    assert lines == [f"{f}:2: sid 2: requires: expected 'feature NAME', 'keyword NAME' or "
                     "'version OP X.Y.Z', got 'version >> 7' (col 51)"]
    assert (s["enabled"], s["accepted"], s["rejected"], s["skipped"]) == (3, 1, 1, 1)


def test_byte_keywords_take_the_byte_count_from_a_variable(tmp_path):
    # |00 00 00| marker, a count byte (2), a 2-byte field 0x0001, then "ZXY"
    data = b"\x00\x00\x00\x02\x00\x01ZXY"
    pkts = Conv(dport=9000).handshake().send(True, data).close().pkts
    pre = 'flow:to_server; content:"|00 00 00|"; byte_extract:1,0,n,relative;'
    rules = [
        rule(f'{pre} byte_test:n,=,1,0,relative;', sid=1),
        rule(f'{pre} byte_test:n,=,0,0,relative;', sid=2),          # 1 byte would read 0
        rule(f'{pre} byte_jump:n,0,relative; content:"XY"; within:2;', sid=3),
        rule(f'{pre} byte_jump:n,0,relative; content:"ZX"; within:2;', sid=4),
        rule(f'{pre} byte_math:bytes n, offset 0, oper +, rvalue 1, result r, relative; '
             'byte_test:1,=,r,0,relative;', sid=5),                  # 'Z' is not 2
        rule(f'{pre} byte_math:bytes n, offset 0, oper +, rvalue 1, result r, relative; '
             'isdataat:r,relative; content:"XY"; distance:0;', sid=6),
        # a byte_jump of 0 bytes reads 0 and only moves by post_offset
        rule('flow:to_server; content:"XY"; byte_jump:0,0,relative,post_offset -2; '
             'content:"XY"; within:2;', sid=7),
    ]
    assert detect(tmp_path, pkts, rules).sids == [1, 3, 6, 7]


# --- absent ------------------------------------------------------------------------------------

@pytest.mark.parametrize("referer,expect", [
    (b"", [1, 2, 3, 5, 6]),                         # no Referer header
    (b"Referer: http://example.com/\r\n", [4]),
    (b"Referer: http://other.test/\r\n", [3, 4, 5]),
])
def test_absent(tmp_path, referer, expect):
    pkts = get(b"/", b"User-Agent: foo\r\n" + referer)
    bodies = [
        'http.referer; absent;',
        'http.uri; content:"/"; bsize:1; http.referer; absent;',
        'http.referer; absent: or_else; content:!"example";',
        'http.referer; content:"http";',
        'http.referer; absent: or_else; content:"other";',
        'http.referer; absent; http.user_agent; content:"foo";',
    ]
    assert sids(tmp_path, pkts, bodies) == expect


@pytest.mark.parametrize("req,expect", [
    (b"POST /p HTTP/1.1\r\nHost: x\r\n\r\n", [1, 2, 3]),          # no body at all
    (b"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz", [2, 4]),
    (b"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", [4]),
])
def test_absent_request_body_is_known_when_the_request_is_done(tmp_path, req, expect):
    """A body buffer is missing only once the whole request is in: absent runs at the end of
    the message (http_request_done), also for a request that never gets a body event."""
    pkts = Conv().handshake().send(True, req).close().pkts
    bodies = ['http.request_body; absent;',
              'http.request_body; absent: or_else; content:!"abc";',
              'http.request_body; absent; http.method; content:"POST";',
              'http.request_body; bsize:3;']
    r = detect(tmp_path, pkts, [rule(f"flow:established,to_server; {b}", sid=i + 1,
                                     proto="http") for i, b in enumerate(bodies)])
    assert r.sids == expect
    # the request (4), its ACK (5): Suricata's IDS mode inspects it with the client's next (6)
    assert {a["pcap_cnt"] for a in r.alerts} == {6}


def test_absent_argument_errors(tmp_path):
    from rules_helpers import osprey
    f = tmp_path / "a.rules"
    f.write_text("\n".join([
        rule('absent;', sid=1, proto="http"),
        rule('http.referer; content:"a"; absent;', sid=2, proto="http"),
        rule('http.referer; absent; content:"a";', sid=3, proto="http"),
        rule('http.referer; absent: maybe;', sid=4, proto="http"),
    ]) + "\n")
    out = osprey("-T", "-S", str(f)).stdout
    assert [l.split(": ", 2)[2] for l in out.splitlines() if ": sid " in l] == [
        "absent: needs a sticky buffer before it (col 42)",
        "absent: must come first on its buffer (col 69)",
        "content: the buffer is tested with plain 'absent' (use 'absent: or_else' to inspect "
        "it when present) (col 64)",
        "absent: expected 'or_else', got 'maybe' (col 64)",
    ]


# --- entropy -----------------------------------------------------------------------------------

def test_entropy(tmp_path):
    # the response body: 16 distinct bytes, each twice: 4 bits per byte exactly; from offset
    # 16 the bytes "ABCDEFGHIJKLMNOP" once each: 4 bits too; "aaaa…" after: 0
    body = b"ABCDEFGHIJKLMNOP" * 2
    pkts = http(b"GET / HTTP/1.1\r\nHost: h\r\n\r\n",
                b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    bodies = ['file.data; entropy: value = 4;', 'file.data; entropy: value > 4;',
              'file.data; entropy: value >= 4;', 'file.data; entropy: value 3.5-4.5;',
              'file.data; entropy: value !3.5-4.5;', 'file.data; entropy: value < 4.01;',
              'file.data; entropy: bytes 2, value = 1;', 'file.data; entropy: offset 31, value = 0;',
              'file.data; content:"ABC"; entropy: value != 4;']
    rules = [rule(f"flow:to_client; {b}", sid=i + 1, proto="http") for i, b in enumerate(bodies)]
    assert detect(tmp_path, pkts, rules).sids == [1, 3, 4, 6, 7, 8]


def test_suricata_integer_ranges_on_dsize_and_bsize(tmp_path):
    # Suricata's integer keywords: A-B excludes both ends (like A<>B), !A-B is outside it
    pkts = Conv(dport=9000).handshake().send(True, b"0123456789").close().pkts
    rules = [rule(f'content:"0123"; dsize:{v};', sid=i + 1) for i, v in enumerate(
        ["9-11", "10-12", "8-10", "!10-12", "!9-11", "!12-20", "9<>11", "<=10", ">=11"])]
    assert detect(tmp_path, pkts, rules).sids == [1, 4, 6, 7, 8]
    uri = get(b"/abcdefgh")  # 9 bytes
    assert sids(tmp_path, uri, ['http.uri; bsize:8-10;', 'http.uri; bsize:9-11;',
                                'http.uri; bsize:!9-11;', 'http.uri; bsize:!3-8;',
                                'http.uri; content:"/abc"; bsize:>=9;']) == [1, 3, 4, 5]


def test_pcre_capture_list_inside_the_quotes_parses(tmp_path):
    # Suricata's "/re/flags, flow:name": read and loaded (tests/detect/test_detect_pcre_vars.py)
    from rules_helpers import osprey
    f = tmp_path / "p.rules"
    f.write_text("\n".join([rule('pcre:"/gid=(\\d+)/i, flow:gid";', sid=1),
                            rule('pcre:"/(a)/,alert:ua, pkt:x";', sid=2),
                            rule('pcre:"/(a)/, bogus";', sid=3)]) + "\n")
    out = osprey("-T", "-S", str(f)).stdout
    assert [l.split(": ", 2)[2] for l in out.splitlines() if ": sid " in l] == [
        "pcre: expected a capture 'flow:NAME', 'pkt:NAME' or 'alert:NAME', got 'bogus' (col 54)",
    ]


def test_transforms_not_applied_yet_are_reported_as_unsupported(tmp_path):
    from rules_helpers import osprey
    f = tmp_path / "d.rules"
    f.write_text("\n".join([rule('dns.query; domain; content:"example.com";', sid=1, proto="dns"),
                            rule('dns.query; tld; content:"com";', sid=2, proto="dns")]) + "\n")
    out = osprey("-T", "-S", str(f)).stdout
    assert [l.split(": ", 2)[2] for l in out.splitlines() if ": sid " in l] == [
        "unsupported option domain", "unsupported option tld"]


def test_isdataat_absolute_and_relative_count_differently(tmp_path):
    # Suricata: isdataat:N (absolute) wants the byte at offset N; isdataat:N,relative wants N
    # more bytes after the previous match (from the start when there is none)
    from scapy.layers.inet import ICMP, IP
    from scapy.packet import Raw
    pkts = [IP(src="10.0.0.1", dst="10.0.0.2") / ICMP() / Raw(b"a" + b"b" * 31)]  # 32 bytes
    rules = [rule(b, sid=i + 1, proto="icmp") for i, b in enumerate([
        "isdataat:31;", "isdataat:32;", "isdataat:31,relative;", "isdataat:32,relative;",
        "isdataat:33,relative;", 'content:"a"; depth:1; isdataat:31,relative;',
        'content:"a"; depth:1; isdataat:32,relative;', 'content:"a"; isdataat:!32,relative;'])]
    assert detect(tmp_path, pkts, rules).sids == [1, 3, 4, 6, 8]


def test_base64_decode_of_a_long_field(tmp_path):
    # 4 KB of encoded data (decoded past the small stack area): the tail is still found
    import base64
    blob = base64.b64encode(b"A" * 3000 + b"needle-at-the-end").decode()
    body = 'http.uri; content:"q="; base64_decode:relative; base64_data; content:"needle-at-the-end";'
    assert sids(tmp_path, get(f"/b64?q={blob}".encode()), [body]) == [1]
