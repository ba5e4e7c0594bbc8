"""Server-side HTTP evasions (after noxxi.de's HTTP Evader): responses framed and encoded in
ways browsers accept and a strict parser does not. The parser reads them as libhtp (Suricata)
does, so the body a rule sees is the one the browser gets. Each case builds the response and
asserts the exact response body (osprey-trace --app), and end to end the alerts of
file_data rules (osprey -r)."""
import gzip
import lzma
import zlib

import pytest

from detect_helpers import detect, rule
from parsers_helpers import app_trace, conversation

EICAR = b"X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*"
GET = b"GET /eicar.txt HTTP/1.1\r\nHost: evader.example\r\n\r\n"
LAYERS3 = ("--set", "app-layer.protocols.http.libhtp.default-config."
                    "response-body-decompress-layer-limit=3")


def body_of(trace, resp, *args, rseg=None):
    a = app_trace(trace, conversation(GET, resp, rseg=rseg), *args)
    return [b["http.response_body"] for b in a.bufs("http_response_body")]


def raw_deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def chunks(data, size, line=b"%x\r\n"):
    out = b""
    for i in range(0, len(data), size):
        part = data[i:i + size]
        out += line % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


def head(*headers, status=b"HTTP/1.1 200 ok", eol=b"\r\n", end=b"\r\n"):
    return status + eol + eol.join(headers) + eol + end


# ---- chunk size lines ----

@pytest.mark.parametrize("line", [
    b"%xx\r\n",        # junk after the size
    b" %x\r\n",        # space before it
    b"\t%x\r\n",       # tab
    b"\r%x\r\n",       # a CR first
    b"\n%x\r\n",       # an empty line first
    b"\r\n\r\n%x\r\n",  # two
    b"\x0b%x\r\n",     # VT
    b"%x;ext=1\n",     # an extension, LF only
])
def test_lenient_chunk_size_lines(trace, line):
    resp = head(b"Transfer-Encoding: chunked") + chunks(EICAR, 15, line)
    assert body_of(trace, resp) == [EICAR]


def test_chunk_size_that_is_no_size_makes_the_rest_plain_body(trace):
    """"chunked" named but the body sent as is: the first line holds no hex size, so all
    of it is the body (HTTP/1.0 and a Content-Length do not change that)."""
    for status in (b"HTTP/1.1 200 ok", b"HTTP/1.0 200 ok"):
        resp = head(b"Transfer-Encoding: chunked", b"Content-Length: 68", status=status) + EICAR
        assert body_of(trace, resp) == [EICAR]
    # decided even before the line is complete (one byte per segment)
    assert body_of(trace, head(b"Transfer-Encoding: chunked") + EICAR, rseg=1) == [EICAR]


def test_transfer_encoding_variants(trace):
    """chunked anywhere in the (merged) Transfer-Encoding values is chunked."""
    body = chunks(EICAR, 4)
    for hdrs in ([b"Transfer-Encoding: lalala", b"Transfer-Encoding: chunked"],
                 [b"Transfer-Encoding: chunked x"],
                 [b"Transfer-Encoding:\r\n chunked"],
                 [b"Transfer-Encoding\t: chunked"],
                 [b"Transfer-Encoding:: chunked"],
                 [b"Transfer\x00-Encoding: chun\x00ked"],
                 [b"Transfer-Encoding\x0b: chunked"],
                 [b"Transfer-Encoding\r\n :chunked"],
                 [b"X-Foo: bar", b" Transfer-Encoding: chunked"]):
        assert body_of(trace, head(*hdrs) + body) == [EICAR], hdrs


# ---- line ends and the end of the head ----

@pytest.mark.parametrize("resp", [
    # CR alone ends a header line; the status line too
    b"HTTP/1.1 200 ok\rContent-Length: 68\rX: y\r\n\r\n" + EICAR,
    # LF CR ends a line
    b"HTTP/1.1 200 ok\n\rContent-Length: 68\n\rX: y\r\n\r\n" + EICAR,
    # the head ends at "\n \n" ("68\n" folded with an empty line, then the empty line)
    b"HTTP/1.1 200 ok\r\nContent-Length: 68\n \n" + EICAR,
    # "\n\r\r\n" is one (mangled) line end
    b"HTTP/1.1 200 ok\r\nContent-Length: 68\n\r\r\n" + EICAR,
    # lower-case protocol
    b"http/1.1 200 ok\r\nContent-Length: 68\r\n\r\n" + EICAR,
])
def test_odd_line_ends(trace, resp):
    assert body_of(trace, resp) == [EICAR]
    assert body_of(trace, resp, rseg=1) == [EICAR]  # the same, a byte at a time


def test_response_without_status_line_is_body(trace):
    """No status line: what the server sends is the body (HTTP/0.9 style)."""
    assert body_of(trace, EICAR) == [EICAR]
    # a line that is no status line before a real one is skipped
    resp = b"SIP/2.0 200 ok\r\nHTTP/1.1 200 ok\r\nContent-Length: 68\r\n\r\n" + EICAR
    assert body_of(trace, resp) == [EICAR]


def test_body_after_a_short_content_length_continues(trace):
    """Content-Length "34 68" reads 34; the bytes after them do not look like a status line,
    so libhtp takes them for more of the same body."""
    resp = head(b"Content-Length: 34 68") + EICAR
    a = app_trace(trace, conversation(GET, resp))
    assert [b["http.response_body"] for b in a.bufs("http_response_body")] == [EICAR]
    assert len(a.of("http_response")) == 1


def test_1xx_204_304_with_a_length_have_that_body(trace):
    for status in (b"HTTP/1.1 100 ok", b"HTTP/1.1 102 ok", b"HTTP/1.1 204 ok",
                   b"HTTP/1.1 304 ok"):
        assert body_of(trace, head(b"Content-Length: 68", status=status) + EICAR) == [EICAR]


# ---- Content-Encoding ----

def test_stacked_and_listed_encodings(trace):
    gz = gzip.compress(EICAR, mtime=0)
    gz_df = raw_deflate(gz)                      # gzip, then deflate
    df_gz_df = raw_deflate(gzip.compress(raw_deflate(EICAR), mtime=0))
    cases = [
        ([b"Content-Encoding: gzip", b"Content-Encoding: deflate"], gz_df),
        ([b"Content-Encoding: gzip, deflate"], gz_df),
        ([b"Content-Encoding: deflate,gzip,deflate"], df_gz_df),
        ([b"Content-Encoding: x-gzip"], gz),
        ([b"Content-Encoding : gzip"], gz),        # space before the colon
        ([b"Content-Encoding:: gzip"], gz),        # ":" is an unknown coding, then gzip
        ([b"Content-Encoding:\r gzip"], gz),       # a CR-folded value
        ([b"Content-Encoding: gz\x00ip"], gz),     # NUL inside
        ([b"Content-Encoding: deflate", b"Content-Encoding: gzip x"], raw_deflate(EICAR)),
    ]
    for hdrs, data in cases:
        resp = head(*hdrs, b"Content-Length: %d" % len(data)) + data
        assert body_of(trace, resp, *LAYERS3) == [EICAR], hdrs


def test_layer_limit(trace):
    """Three layers need a limit of 3: with the default 2 only the outer two are undone."""
    data = raw_deflate(gzip.compress(raw_deflate(EICAR), mtime=0))
    resp = head(b"Content-Encoding: deflate, gzip, deflate",
                b"Content-Length: %d" % len(data)) + data
    assert body_of(trace, resp, *LAYERS3) == [EICAR]
    assert body_of(trace, resp) == [raw_deflate(EICAR)]


def test_deflate_zlib_or_raw(trace):
    for data in (zlib.compress(EICAR), raw_deflate(EICAR)):
        resp = head(b"Content-Encoding: deflate", b"Content-Length: %d" % len(data)) + data
        assert body_of(trace, resp) == [EICAR]


def gz_with(flags=0, extra=b"", trailer=None):
    member = gzip.compress(EICAR, mtime=0)
    hdr = bytearray(member[:10])
    hdr[3] |= flags
    out = bytes(hdr) + extra + member[10:]
    if trailer is not None:
        out = out[:-8] + trailer
    return out


@pytest.mark.parametrize("data", [
    gz_with(0x02, b"\x00\x00"),                # FHCRC
    gz_with(0x04, b"\x03\x00abc"),             # FEXTRA
    gz_with(0x08, b"eicar.txt\x00"),           # FNAME
    gz_with(0x10, b"a comment\x00"),           # FCOMMENT
    gz_with(0x20),                             # a reserved bit
    gz_with(trailer=b"\xff" * 8),              # bad CRC-32 and ISIZE
    gz_with(trailer=b""),                      # no trailer at all
])
def test_gzip_member_oddities(trace, data):
    resp = head(b"Content-Encoding: gzip", b"Content-Length: %d" % len(data)) + data
    assert body_of(trace, resp) == [EICAR]
    assert body_of(trace, resp, rseg=3) == [EICAR]


def test_lzma_when_enabled(trace):
    data = lzma.compress(EICAR, format=lzma.FORMAT_ALONE)
    resp = head(b"Content-Encoding: lzma", b"Content-Length: %d" % len(data)) + data
    on = ("--set", "app-layer.protocols.http.libhtp.default-config.lzma-enabled=yes")
    assert body_of(trace, resp, *on) == [EICAR]
    assert body_of(trace, resp) == [data]  # off by default: the body as sent


def test_layered_bomb_stays_bounded(trace):
    """A gzip bomb inside a gzip bomb: the body stops at its limit, framing goes on."""
    inner = gzip.compress(b"\0" * (8 << 20), mtime=0)
    data = gzip.compress(inner + b"\0" * (4 << 20), mtime=0)
    resp = head(b"Content-Encoding: gzip, gzip", b"Content-Length: %d" % len(data)) + data
    resp += b"HTTP/1.1 200 ok\r\nContent-Length: 3\r\n\r\nend"
    reqs = GET + GET
    a = app_trace(trace, conversation(reqs, resp, rseg=1400),
                  "--set", "app-layer.protocols.http.response-body-limit=4096")
    bodies = [b["http.response_body"] for b in a.bufs("http_response_body")]
    assert bodies == [b"\0" * 4096, b"end"]
    assert a.stats["http_body_limit"] == 1


# ---- end to end: the rules of the http-evader suite alert once each ----

def test_file_data_rules_alert_once_through_evasions(tmp_path):
    rules = [rule('file_data; content:"EICAR-STANDARD-ANTIVIRUS-TEST-FILE";', sid=1,
                  proto="http"),
             rule('file_data; content:"X5O!P%@AP[4";', sid=2, proto="http")]
    gz = gzip.compress(EICAR, mtime=0)
    responses = [
        head(b"Transfer-Encoding: chunked") + chunks(EICAR, 15, b" %x\r\n"),
        b"HTTP/1.1 200 ok\rTransfer-Encoding: chunked\r\n\r\n" + chunks(EICAR, 5),
        head(b"Content-Encoding : gzip", b"Content-Length: %d" % len(gz)) + gz,
        head(b"Content-Length: 34 68") + EICAR,
        EICAR,
    ]
    for i, resp in enumerate(responses):
        res = detect(tmp_path, conversation(GET, resp), rules, name="e%d" % i)
        assert sorted(res.sids) == [1, 2], resp[:60]
