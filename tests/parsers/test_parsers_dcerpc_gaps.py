"""DCERPC's gaps and limits (parsers/dcerpc/): over TCP a hole drops the PDU being read and
the parser finds the next PDU header (Suricata's DCERPC parser accepts gaps and searches for
the next record), counted `dcerpc_gaps`; over UDP a lost fragment (the call goes on with the
fragments that came; a call whose last fragment is lost is reported REQUEST_LOST); and the
bounds the README names — 1 MiB of a stub (`dcerpc_stub_shed`), 64 bound contexts
(`dcerpc_ctx_shed`) — each crossed, with the exact alerts, records (against Suricata's EVE
schema) and counters."""
import struct
import uuid

from detect_helpers import Conv, rule, udp
from gap_helpers import eve_run, lose
from test_parsers_dcerpc import IFACE, NDR, bind, bind_ack, pdu, request, response

RULES = [rule(f"flow:to_server; dcerpc.iface:{IFACE}; dcerpc.opnum:15;", sid=1,
              proto="dcerpc"),
         rule('flow:to_server; dcerpc.stub_data; content:"SECOND-CALL";', sid=2,
              proto="dcerpc"),
         rule('flow:to_client; dcerpc.stub_data; content:"ANSWER-2";', sid=3, proto="dcerpc"),
         rule('flow:to_server; dcerpc.stub_data; content:"FIRST-CALL";', sid=4,
              proto="dcerpc")]


def test_a_hole_in_a_request_resyncs_on_the_next_pdu(tmp_path):
    c = Conv(sport=50000, dport=135).handshake()
    c.send(True, bind()).send(False, bind_ack())
    first = request(15, b"FIRST-CALL" * 20, call_id=7)
    c.send(True, first[:40])
    lose(c, True, first[40:120])
    # the lost PDU's tail and the next request arrive together: the tail is skipped
    c.send(True, first[120:] + request(15, b"SECOND-CALL", call_id=8))
    c.send(False, response(b"ANSWER-2", call_id=8)).close()
    r = eve_run(tmp_path, c.pkts, RULES, ["dcerpc"])
    # the binding from before the hole still holds: the second call is svcctl's opnum 15
    assert r.sids == [1, 2, 3]
    assert r.counters("dcerpc")["dcerpc_gaps"] == 1
    assert r.counters("dcerpc")["dcerpc_malformed"] == 0
    assert [x["dcerpc"] for x in r.of("dcerpc")] == [
        {"request": "BIND", "interfaces": [{"uuid": IFACE, "version": "2.0", "ack_result": 0}],
         "response": "BINDACK", "call_id": 1, "rpc_version": "5.0"},
        {"request": "REQUEST", "interfaces": [{"uuid": IFACE, "version": "2.0"}],
         "req": {"opnum": 15, "frag_cnt": 1, "stub_data_size": 11}, "response": "RESPONSE",
         "res": {"frag_cnt": 1, "stub_data_size": 16}, "call_id": 8, "rpc_version": "5.0"}]


def test_a_hole_in_a_response_resyncs_on_the_next_pdu(tmp_path):
    c = Conv(sport=50000, dport=135).handshake()
    c.send(True, bind())
    ack = bind_ack()
    lose(c, False, ack[:30])  # the ack's header is lost with its start
    c.send(False, ack[30:])
    c.send(True, request(15, b"SECOND-CALL", call_id=8))
    c.send(False, response(b"ANSWER-2", call_id=8)).close()
    r = eve_run(tmp_path, c.pkts, RULES, ["dcerpc"])
    # the request and the response after the hole are read; the context its ack would have
    # accepted was not refused either, so it is the request's interface (sid 1)
    assert r.sids == [1, 2, 3]
    assert r.counters("dcerpc")["dcerpc_gaps"] == 1
    recs = [x["dcerpc"] for x in r.of("dcerpc")]
    # (the bind unanswered: its interfaces have no ack_result)
    assert recs[0] == {"request": "BIND", "interfaces": [{"uuid": IFACE, "version": "2.0"}],
                       "response": "UNREPLIED", "call_id": 1, "rpc_version": "5.0"}
    assert recs[1]["request"] == "REQUEST" and recs[1]["response"] == "RESPONSE"


def cl_request(seq, frag, last, stub, fragged=True):
    flags = (0x04 if fragged else 0) | (0x02 if last else 0)
    hdr = struct.pack("<BBBB3sB16s16s16sIIIHHHHHBB", 4, 0, flags, 0, b"\x10\0\0", 0,
                      b"\0" * 16, uuid.UUID(IFACE).bytes_le, uuid.UUID(int=5).bytes_le, 0, 2,
                      seq, 15, 0xffff, 0xffff, len(stub), frag, 0, 0)
    return udp(hdr + stub, sport=1025, dport=135)


def test_udp_lost_fragments(tmp_path):
    pkts = [cl_request(1, 0, False, b"FIRST-CALL part one "),
            # (fragment 1 of call 1, its last, is lost)
            # call 2: its first fragment is lost, its last one comes
            cl_request(2, 1, True, b"SECOND-CALL tail")]
    r = eve_run(tmp_path, pkts, RULES, ["dcerpc"])
    # call 1 never completes (no dcerpc_request: sid 4 is not run); call 2's last
    # fragment is a request of its own, not begun by a first fragment: its stub is read
    # (sid 2) but dcerpc.iface without any_frag does not match it (sid 1)
    assert r.sids == [2]
    recs = [x["dcerpc"] for x in r.of("dcerpc")]
    assert [x["request"] for x in recs] == ["REQUEST_LOST", "REQUEST"]
    assert recs[1]["req"] == {"opnum": 15, "frag_cnt": 1, "stub_data_size": 16}
    assert recs[1]["seqnum"] == 2


def test_a_stub_past_1mib_is_cut(tmp_path):
    # 20 fragments of 60000 bytes: 1.2 MB of stub; 1 MiB is kept, the rest counted
    frag = b"S" * 60000
    c = Conv(sport=50000, dport=135).handshake()
    c.send(True, bind()).send(False, bind_ack())
    for i in range(20):
        flags = (1 if i == 0 else 0) | (2 if i == 19 else 0)
        c.send(True, request(15, frag[:-9] + (b"TAIL-MARK" if i == 19 else b"S" * 9),
                             flags=flags), seg=1400)
    c.send(False, response(b"ok")).close()
    rules = [rule(f"flow:to_server; dcerpc.iface:{IFACE}; dcerpc.opnum:15;", sid=1,
                  proto="dcerpc"),
             rule('flow:to_server; dcerpc.stub_data; content:"TAIL-MARK";', sid=2,
                  proto="dcerpc"),
             rule("flow:to_server; dcerpc.stub_data; bsize:1048576;", sid=3, proto="dcerpc")]
    r = eve_run(tmp_path, c.pkts, rules, ["dcerpc"], "--set", "stream.reassembly.depth=4mb")
    assert r.sids == [1, 3]
    assert r.counters("dcerpc")["dcerpc_stub_shed"] == 20 * 60000 - (1 << 20)
    (req,) = [x["dcerpc"] for x in r.of("dcerpc") if x["dcerpc"]["request"] == "REQUEST"]
    assert req["req"] == {"opnum": 15, "frag_cnt": 20, "stub_data_size": 20 * 60000}


def test_bound_contexts_past_64_are_shed(tmp_path):
    # 70 contexts in one bind (ids 0..69, svcctl 2.0): 64 kept; a request on context 69
    # names no interface, one on context 63 does
    ctxs = b"".join(struct.pack("<HBB", i, 1, 0) + uuid.UUID(IFACE).bytes_le +
                    struct.pack("<HH", 2, 0) + NDR for i in range(70))
    big_bind = pdu(11, 3, 1, struct.pack("<HHIB3x", 4280, 4280, 0, 70) + ctxs)
    c = Conv(sport=50000, dport=135).handshake()
    c.send(True, big_bind).send(False, bind_ack())
    c.send(True, request(15, b"FIRST-CALL", ctxid=69, call_id=2))
    c.send(False, response(b"ANSWER-1", call_id=2))
    c.send(True, request(15, b"SECOND-CALL", ctxid=63, call_id=3))
    c.send(False, response(b"ANSWER-2", call_id=3)).close()
    r = eve_run(tmp_path, c.pkts, RULES, ["dcerpc"])
    # sid 1 on the second call only (context 63 is kept; the ack accepted only the first
    # context, and the others default to 0: accepted, as no result refused them)
    assert r.sids == [1, 2, 3, 4]
    assert r.counters("dcerpc")["dcerpc_ctx_shed"] == 6
    recs = [x["dcerpc"] for x in r.of("dcerpc")]
    assert len(recs[0]["interfaces"]) == 64
    assert "interfaces" not in recs[1] and recs[2]["interfaces"] == [
        {"uuid": IFACE, "version": "2.0"}]
