"""PostgreSQL (parsers/pgsql) end to end: detection (TCP 5432), the startup packet, MD5
authentication, a simple query with its rows counted, Terminate, Suricata 8's pgsql.query, the
EVE pgsql records (request / response objects, validated against Suricata's schema), the five
lines of suricata-builtin/pgsql-events.rules firing on crafted traffic, an SSLRequest handing
the flow to TLS, max-tx and stream-depth."""
import json
import struct

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out
from tls_helpers import hello

EVENTS = ROOT.parent / "shared" / "corpus" / "rules" / "suricata-builtin" / "pgsql-events.rules"


def msg(t, body=b""):
    return t + struct.pack(">I", len(body) + 4) + body


def startup(user=b"alice", params=((b"database", b"shop"), (b"application_name", b"psql"))):
    body = struct.pack(">I", 3 << 16) + b"user\0" + user + b"\0"
    body += b"".join(k + b"\0" + v + b"\0" for k, v in params) + b"\0"
    return struct.pack(">I", len(body) + 4) + body


def auth(sub, extra=b""):
    return msg(b"R", struct.pack(">I", sub) + extra)


def param(k, v):
    return msg(b"S", k + b"\0" + v + b"\0")


READY = msg(b"Z", b"I")
LOGIN = (auth(0) + param(b"server_version", b"16.1") + param(b"client_encoding", b"UTF8")
         + msg(b"K", struct.pack(">II", 4242, 99)) + READY)


def row(*cols):
    return msg(b"D", struct.pack(">H", len(cols))
               + b"".join(struct.pack(">i", len(c)) + c for c in cols))


def fields(*names):
    return msg(b"T", struct.pack(">H", len(names)) + b"".join(
        n + b"\0" + struct.pack(">IHIhih", 0, 0, 25, -1, -1, 0) for n in names))


def session():
    c = Conv(dport=5432).handshake()
    c.send(True, startup())
    c.send(False, auth(5, b"abcd"))
    c.send(True, msg(b"p", b"md5deadbeef\0"))
    c.send(False, LOGIN)
    c.send(True, msg(b"Q", b"SELECT * FROM users;\0"))
    c.send(False, fields(b"id", b"name") + row(b"1", b"ann") + row(b"2", b"bob")
           + msg(b"C", b"SELECT 2\0") + READY)
    c.send(True, msg(b"X"))
    c.close()
    return c.pkts


def events():
    return [l for l in EVENTS.read_text().splitlines() if l.startswith("alert")]


def validate(recs):
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in recs:
        assert not list(v.iter_errors(r)), r


def test_pgsql_records(tmp_path):
    out = osprey_out(tmp_path, session(),
                     [rule('pgsql.query; content:"users";', sid=7, proto="pgsql")],
                     "--set", "outputs.eve-log.types=[alert,pgsql]")
    recs = [r["pgsql"] for r in out.of("pgsql")]
    assert recs == [
        {"tx_id": 1,
         "request": {"protocol_version": "3.0",
                     "startup_parameters": {"user": "alice", "optional_parameters": [
                         {"database": "shop"}, {"application_name": "psql"}]}},
         "response": {"authentication_md5_password": "abcd"}},
        {"tx_id": 2, "request": {"password_redacted": True},
         "response": {"message": "authentication_ok",
                      "parameter_status": [{"server_version": "16.1"},
                                           {"client_encoding": "UTF8"}],
                      "process_id": 4242, "secret_key": 99}},
        {"tx_id": 3, "request": {"simple_query": "SELECT * FROM users;"},
         "response": {"field_count": 2, "data_rows": 2, "data_size": 8,
                      "command_completed": "SELECT 2"}},
        {"tx_id": 4, "request": {"message": "terminate_message"}},
    ]
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 7 and a["app_proto"] == "pgsql"
    validate(out.of("pgsql") + out.of("alert"))


def test_pgsql_query_rules(tmp_path):
    rules = [rule('pgsql.query; content:"SELECT *"; startswith;', sid=1, proto="pgsql"),
             rule('pgsql.query; content:"delete"; nocase;', sid=2, proto="pgsql"),
             rule('flow:to_client; pgsql.query; content:"users";', sid=3, proto="pgsql"),
             rule('pgsql.query; bsize:20;', sid=4, proto="pgsql")]
    assert detect(tmp_path, session(), rules).sids == [1, 4]
    # not on another port: the probe wants 5432 on one side
    c = Conv(dport=5433).handshake()
    c.send(True, startup())
    c.send(True, msg(b"Q", b"SELECT * FROM users;\0"))
    assert detect(tmp_path, c.pkts, rules, name="p").sids == []


def test_pgsql_builtin_events(tmp_path):
    rules = events()
    assert len(rules) == 4  # the file's four rules (its fifth line is a comment)
    # a query without its terminating zero: malformed request (sid 2241001)
    c = Conv(dport=5432).handshake()
    c.send(True, startup())
    c.send(False, LOGIN)
    c.send(True, msg(b"Q", b"SELECT 1"))
    assert detect(tmp_path, c.pkts, rules, name="mreq").sids == [2241001]
    # an authentication request of no known kind: malformed response (sid 2241002)
    c = Conv(dport=5432).handshake()
    c.send(True, startup())
    c.send(False, auth(99))
    assert detect(tmp_path, c.pkts, rules, name="mresp").sids == [2241002]
    # a Terminate with a body, a ReadyForQuery of 3 bytes: invalid length (sid 2241003)
    c = Conv(dport=5432).handshake()
    c.send(True, startup())
    c.send(False, auth(0) + msg(b"Z", b"III"))
    assert detect(tmp_path, c.pkts, rules, name="len").sids == [2241003]
    c = Conv(dport=5432).handshake()
    c.send(True, startup())
    c.send(False, LOGIN)
    c.send(True, msg(b"X", b"!"))
    assert detect(tmp_path, c.pkts, rules, name="len2").sids == [2241003]
    # queries nobody answers past max-tx: too many transactions (sid 2241000), each time
    c = Conv(dport=5432).handshake()
    c.send(True, startup())
    c.send(False, LOGIN)
    for i in range(4):
        c.send(True, msg(b"Q", b"SELECT %d;\0" % i))
    c.close()
    assert detect(tmp_path, c.pkts, rules, "--set", "app-layer.protocols.pgsql.max-tx=2",
                  name="tx").sids == [2241000, 2241000]
    assert detect(tmp_path, c.pkts, rules, name="tx1").sids == []


def test_pgsql_errors_and_cancel(tmp_path):
    c = Conv(dport=5432).handshake()
    c.send(True, startup())
    c.send(False, LOGIN)
    c.send(True, msg(b"Q", b"SELEC 1;\0"))
    c.send(False, msg(b"E", b"SERROR\0VERROR\0C42601\0Msyntax error at or near \"SELEC\"\0"
                            b"P1\0Fscan.l\0L1176\0Rscanner_yyerror\0\0") + READY)
    c.close()
    cancel = Conv(dport=5432, sport=40001).handshake()
    cancel.send(True, struct.pack(">IIII", 16, 80877102, 4242, 99))
    cancel.close()
    out = osprey_out(tmp_path, c.pkts + cancel.pkts, [], "--set",
                     "outputs.eve-log.types=[pgsql]")
    recs = [r["pgsql"] for r in out.of("pgsql")]
    assert len(recs) == 3
    assert [r for r in recs if "simple_query" in r["request"]][0] == {"tx_id": 2, "request": {"simple_query": "SELEC 1;"}, "response": {
        "severity_localizable": "ERROR", "severity_non_localizable": "ERROR", "code": "42601",
        "message": "syntax error at or near \"SELEC\"", "file": "scan.l", "line": "1176",
        "routine": "scanner_yyerror"}}
    assert [r for r in recs if "message" in r["request"]][0] == {"tx_id": 1, "request": {"message": "cancel_request", "process_id": 4242,
                                               "secret_key": 99}}
    validate(out.of("pgsql"))


def test_pgsql_copy(tmp_path):
    c = Conv(dport=5432).handshake()
    c.send(True, startup())
    c.send(False, LOGIN)
    c.send(True, msg(b"Q", b"COPY t TO STDOUT;\0"))
    c.send(False, msg(b"H", b"\0\0\2\0\0\0\0") + msg(b"d", b"1\tann\n") + msg(b"d", b"2\tbob\n")
           + msg(b"c") + msg(b"C", b"COPY 2\0") + READY)
    c.send(True, msg(b"Q", b"COPY t FROM STDIN;\0"))
    c.send(False, msg(b"G", b"\0\0\1\0\0"))
    c.send(True, msg(b"d", b"x\n") + msg(b"d", b"y\n") + msg(b"c"))
    c.send(False, msg(b"C", b"COPY 2\0") + READY)
    c.close()
    out = osprey_out(tmp_path, c.pkts, [], "--set", "outputs.eve-log.types=[pgsql]")
    recs = [r["pgsql"] for r in out.of("pgsql")]
    assert recs[1:] == [
        {"tx_id": 2, "request": {"simple_query": "COPY t TO STDOUT;"},
         "response": {"copy_out_response": {"columns": 2},
                      "copy_data_out": {"data_size": 12, "row_count": 2},
                      "command_completed": "COPY 2"}},
        {"tx_id": 3, "request": {"simple_query": "COPY t FROM STDIN;",
                                 "copy_data_in": {"data_size": 4, "msg_count": 2}},
         "response": {"copy_in_response": {"columns": 1}, "command_completed": "COPY 2"}},
    ]
    validate(out.of("pgsql"))


def test_pgsql_ssl_to_tls(tmp_path):
    c = Conv(dport=5432).handshake()
    c.send(True, struct.pack(">II", 8, 80877103))
    c.send(False, b"S")
    c.send(True, hello(sni=b"db.example.org"))
    c.close()
    rules = [rule('tls.sni; content:"db.example.org";', sid=9, proto="tls")]
    out = osprey_out(tmp_path, c.pkts, rules, "--set", "outputs.eve-log.types=[alert,pgsql]")
    assert [r["pgsql"] for r in out.of("pgsql")] == [
        {"tx_id": 1, "request": {"message": "SSL Request"}, "response": {"ssl_accepted": True}}]
    assert [a["alert"]["signature_id"] for a in out.of("alert")] == [9]
    validate(out.of("pgsql"))
    # refused: the client starts in clear
    c = Conv(dport=5432).handshake()
    c.send(True, struct.pack(">II", 8, 80877103))
    c.send(False, b"N")
    c.send(True, startup())
    c.send(False, LOGIN)
    c.close()
    out = osprey_out(tmp_path, c.pkts, [], "--set", "outputs.eve-log.types=[pgsql]", name="n")
    recs = [r["pgsql"] for r in out.of("pgsql")]
    assert recs[0] == {"tx_id": 1, "request": {"message": "SSL Request"},
                       "response": {"ssl_accepted": False}}
    assert recs[1]["request"]["startup_parameters"]["user"] == "alice"


def test_pgsql_stream_depth(tmp_path):
    rules = [rule('pgsql.query; content:"users";', sid=1, proto="pgsql")]
    assert detect(tmp_path, session(), rules, "--set",
                  "app-layer.protocols.pgsql.stream-depth=40").sids == []
    assert detect(tmp_path, session(), rules, "--set",
                  "app-layer.protocols.pgsql.enabled=no", name="off").sids == []


def test_pgsql_gap_resyncs_at_the_next_message(tmp_path):
    # the server's answer to the first query and the client's second query are lost (the
    # other side acknowledges past them): Suricata resyncs each side at a chunk that starts
    # with a whole message of a type that side sends. The third query and its answer are
    # read again: their transaction, rules and record.
    c = Conv(dport=5432).handshake()
    c.send(True, startup()).send(False, auth(0) + READY)
    c.send(True, msg(b"Q", b"SELECT 1;\0"))
    c.send(False, fields(b"a") + row(b"1") + msg(b"C", b"SELECT 1\0") + READY, order=[])
    c.send(True, msg(b"Q", b"SELECT secret FROM vault;\0"), order=[])
    c.send(True, msg(b"Q", b"SELECT 3;\0"))
    c.send(False, fields(b"c") + row(b"3") + msg(b"C", b"SELECT 1\0") + READY)
    pkts = c.close().pkts
    rules = [rule('pgsql.query; content:"SELECT 3";', sid=1, proto="pgsql"),
             rule('pgsql.query; content:"vault";', sid=2, proto="pgsql"),
             rule("app-layer-event:pgsql.invalid_length;", sid=3, proto="pgsql"),
             rule('flow:to_server; content:"SELECT 3";', sid=4)]      # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [1, 4]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[pgsql]", name="e")
    recs = [r["pgsql"] for r in out.of("pgsql")]
    queries = [r["request"]["simple_query"] for r in recs
               if "simple_query" in r.get("request", {})]
    # the lost query has no record; the third query's transaction is whole (the server side
    # resynced too: its answer is read); the first query's answer never came, so its
    # transaction is written last, at the flow's end, without a response
    assert queries == ["SELECT 3;", "SELECT 1;"]
    assert recs[1]["response"]["data_rows"] == 1 and "response" not in recs[2]
    validate(out.records)


def test_pgsql_gap_at_the_end_of_what_is_acknowledged_is_survived(tmp_path):
    # the client's second query is lost and the server speaks before the client's next one
    # (a ParameterStatus): under ack delivery the server's packet acknowledges up to the hole's
    # end, with nothing after it yet to read. The hole still goes to the parser's gap handler
    # (it does not give the direction up), and the next query is read.
    c = Conv(dport=5432).handshake()
    c.send(True, startup()).send(False, auth(0) + READY)
    c.send(True, msg(b"Q", b"SELECT 1;\0"))
    c.send(False, fields(b"a") + row(b"1") + msg(b"C", b"SELECT 1\0") + READY)
    c.send(True, msg(b"Q", b"SELECT secret FROM vault;\0"), order=[])
    c.send(False, param(b"TimeZone", b"UTC"))
    c.send(True, msg(b"Q", b"SELECT 3;\0"))
    c.send(False, fields(b"c") + row(b"3") + msg(b"C", b"SELECT 1\0") + READY)
    pkts = c.close().pkts
    rules = [rule('pgsql.query; content:"SELECT 3";', sid=1, proto="pgsql"),
             rule('pgsql.query; content:"vault";', sid=2, proto="pgsql")]
    assert detect(tmp_path, pkts, rules).sids == [1]
