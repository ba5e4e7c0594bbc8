"""NFS's and sunrpc's gaps and limits (parsers/nfs/, parsers/rpc/). Over TCP a hole drops
the record being read and parsing resumes at the next record that starts like an RPC call
(to the server) or reply (to the client) — Suricata's NFS parser accepts gaps and probes for
the next record the same way — counted `nfs_gaps` / `sunrpc_gaps`; over UDP a lost datagram
(a call's reply: the transaction is reported without it; a READ chunk: the file is cut
short). The bounds the README names — 256 open transactions (nfs.too_many_transactions), 256
calls awaiting their reply, 1024 handle names, a record past 1 MiB + 4 KiB — each crossed,
with the exact alerts, records (against Suricata's EVE schema) and counters."""
import struct

from detect_helpers import Conv, rule, udp
from gap_helpers import eve_run, lose
from test_parsers_nfs import DIR_FH, FILE_FH, call, mark, opaque, reply, u32

LOOKUP = call(10, 3, 3, opaque(DIR_FH) + opaque(b"notes.txt"))
LOOKUP_OK = reply(10, 0, opaque(FILE_FH) + u32(0) + u32(0))


def read_call(xid, off):
    return call(xid, 3, 6, opaque(FILE_FH) + struct.pack(">Q", off) + u32(4096))


def read_reply(xid, data, eof):
    return reply(xid, 0, u32(0) + u32(len(data)) + u32(eof) + opaque(data))


RULES = [rule("nfs_procedure:3;", sid=1, proto="nfs"),
         rule("nfs_procedure:6;", sid=2, proto="nfs"),
         rule("filesize:11;", sid=3, proto="nfs"),  # the whole READ's file
         rule('filename:"notes.txt";', sid=4, proto="nfs")]


def test_a_hole_in_a_call_resyncs_on_the_next_record(tmp_path):
    c = Conv(sport=800, dport=2049).handshake()
    c.send(True, mark(LOOKUP)).send(False, mark(LOOKUP_OK))
    access = mark(call(9, 3, 4, opaque(FILE_FH) + u32(0x1f)))
    c.send(True, access[:20])
    lose(c, True, access[20:60])
    # the lost call's tail and the READ arrive together: the tail is skipped
    c.send(True, access[60:] + mark(read_call(12, 0)))
    c.send(False, mark(read_reply(12, b"hello world", 1)))
    r = eve_run(tmp_path, c.close().pkts, RULES, ["nfs", "files"])
    assert r.sids == [1, 2, 3, 4]
    assert r.counters("nfs")["nfs_gaps"] == 1 and r.counters("nfs")["nfs_malformed"] == 0
    recs = [(x["nfs"]["procedure"], x["nfs"].get("filename"), x["nfs"]["status"])
            for x in r.of("nfs")]
    assert recs == [("LOOKUP", "notes.txt", "OK"), ("READ", "notes.txt", "OK")]
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("CLOSED", 11)


def test_a_hole_in_a_reply_resyncs_on_the_next_record(tmp_path):
    c = Conv(sport=800, dport=2049).handshake()
    c.send(True, mark(LOOKUP))
    lose(c, False, mark(LOOKUP_OK))  # the handle's name is never learnt
    c.send(True, mark(read_call(12, 0))).send(False, mark(read_reply(12, b"hello world", 1)))
    r = eve_run(tmp_path, c.close().pkts, RULES, ["nfs", "files"])
    # the READ after the hole is read (its file); the LOOKUP is reported at the flow's end
    # without a reply, and the file has no name
    assert r.sids == [1, 2, 3]
    assert r.counters("nfs")["nfs_gaps"] == 1
    recs = {x["nfs"]["procedure"]: x for x in r.of("nfs")}
    assert recs["READ"]["nfs"]["status"] == "OK" and recs["READ"]["nfs"]["filename"] == ""
    assert recs["LOOKUP"]["nfs"]["filename"] == "notes.txt"
    assert "hhash" not in recs["LOOKUP"]["nfs"]  # no reply: no handle
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("CLOSED", 11)


def cli(m):
    return udp(m, sport=800, dport=2049)


def srv(m):
    return udp(m, src="10.0.0.2", dst="10.0.0.1", sport=2049, dport=800)


def test_udp_a_lost_read_chunk_truncates_the_file(tmp_path):
    pkts = [cli(LOOKUP), srv(LOOKUP_OK), cli(read_call(12, 0)), cli(read_call(13, 6)),
            # (the reply to the first READ, bytes 0..5, is lost)
            srv(read_reply(13, b"world", 1))]
    r = eve_run(tmp_path, pkts, RULES, ["nfs", "files"])
    assert r.sids == [1, 2, 4]
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["filename"], f["fileinfo"]["state"], f["fileinfo"]["size"]) == (
        "notes.txt", "TRUNCATED", 5)
    # whole, the same transfer is a complete file
    whole = pkts[:4] + [srv(read_reply(12, b"hello ", 0)), pkts[4]]
    w = eve_run(tmp_path, whole, RULES, ["nfs", "files"], name="whole")
    assert w.sids == [1, 2, 3, 4]
    (f,) = w.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("CLOSED", 11)


def test_udp_a_lost_reply_leaves_its_transaction_unanswered(tmp_path):
    pkts = [cli(LOOKUP), cli(call(11, 3, 12, opaque(DIR_FH) + opaque(b"gone.txt"))),
            srv(reply(11, 2))]
    r = eve_run(tmp_path, pkts, [rule("nfs_procedure:12;", sid=1, proto="nfs")], ["nfs"])
    assert r.sids == [1]
    recs = r.of("nfs")
    assert [(x["nfs"]["procedure"], x["nfs"]["id"]) for x in recs] == [("REMOVE", 2),
                                                                       ("LOOKUP", 1)]
    # the LOOKUP is reported at the flow's end, on the client's packet, without a handle
    # (its status fields are the transaction's defaults, as Suricata's are: OK, ACCEPTED)
    assert (recs[1]["src_port"], recs[1]["dest_port"]) == (800, 2049)
    assert "hhash" not in recs[1]["nfs"] and recs[1]["nfs"]["filename"] == "notes.txt"


def test_open_transactions_and_waiting_calls_past_256(tmp_path):
    # 300 ACCESS calls never answered: 256 transactions stay open (the oldest shed, each
    # raising nfs.too_many_transactions) and 256 calls wait for their reply
    pkts = [cli(call(1000 + i, 3, 4, opaque(FILE_FH) + u32(0x1f))) for i in range(300)]
    pkts.append(cli(LOOKUP))
    rules = [rule("app-layer-event:nfs.too_many_transactions;", sid=1, proto="nfs"),
             rule("nfs_procedure:3;", sid=2, proto="nfs")]
    r = eve_run(tmp_path, pkts, rules, ["nfs"])
    assert r.sids == [1] * 45 + [2]
    n = r.counters("nfs")
    assert (n["nfs_tx_shed"], n["nfs_calls_shed"]) == (45, 45)
    # the shed ones are not reported; the 256 still open are, at the flow's end
    assert len(r.of("nfs")) == 256


def test_handle_names_past_1024(tmp_path):
    # 1030 LOOKUPs teach 1030 names: the first six are shed (oldest first); a READ of the
    # first handle carries no name, one of the last does
    pkts = []
    for i in range(1030):
        h = struct.pack(">I", i) * 3
        pkts += [cli(call(i + 1, 3, 3, opaque(DIR_FH) + opaque(b"f%d" % i))),
                 srv(reply(i + 1, 0, opaque(h) + u32(0) + u32(0)))]
    for xid, i in ((5000, 0), (5001, 1029)):
        h = struct.pack(">I", i) * 3
        pkts += [cli(call(xid, 3, 4, opaque(h) + u32(0x1f))), srv(reply(xid, 0))]
    r = eve_run(tmp_path, pkts, [], ["nfs"])
    assert r.counters("nfs")["nfs_names_shed"] == 6
    access = [x["nfs"] for x in r.of("nfs") if x["nfs"]["procedure"] == "ACCESS"]
    assert [x["filename"] for x in access] == ["", "f1029"]  # (Suricata's empty name)


def test_a_record_past_the_limit_is_skipped(tmp_path):
    # a WRITE record of 1 MiB + 8 KiB: past NFS_RECORD_MAX, skipped whole; the call after
    # it is read
    big = call(20, 3, 7, opaque(FILE_FH) + struct.pack(">QII", 0, 0, 2) +
               opaque(b"W" * ((1 << 20) + 8192)))
    c = Conv(sport=800, dport=2049).handshake()
    rec = mark(big)
    for i in range(0, len(rec), 32768):  # acknowledged within the 64 KiB window
        c.send(True, rec[i:i + 32768], seg=1400)
    c.send(True, mark(LOOKUP)).send(False, mark(LOOKUP_OK))
    rules = [rule("nfs_procedure:7;", sid=1, proto="nfs"), rule("nfs_procedure:3;", sid=2,
                                                                proto="nfs")]
    r = eve_run(tmp_path, c.close().pkts, rules, ["nfs"], "--set",
                "stream.reassembly.depth=4mb")
    assert r.sids == [2]
    assert r.counters("nfs")["nfs_records_skipped"] == 1


def test_sunrpc_a_hole_resyncs_on_the_next_call(tmp_path):
    getport = call(7, 2, 3, u32(100003) + u32(3) + u32(17) + u32(0), prog=100000)
    getport2 = call(8, 2, 3, u32(100005) + u32(3) + u32(6) + u32(0), prog=100000)
    c = Conv(sport=901, dport=111).handshake()
    c.send(True, mark(getport)).send(False, mark(reply(7, 0, u32(2049))))
    second = mark(getport)
    c.send(True, second[:10])
    lose(c, True, second[10:50])
    c.send(True, second[50:] + mark(getport2))
    c.send(False, mark(reply(8, 0, u32(635)))).close()
    r = eve_run(tmp_path, c.pkts, [], ["flow"])
    assert [f["app_proto"] for f in r.of("flow")] == ["sunrpc"]
    # the two whole calls and their replies; the one cut by the hole is not a message
    n = r.counters("sunrpc")
    assert (n["sunrpc_gaps"], n["sunrpc_messages"], n["sunrpc_malformed"]) == (1, 4, 0)


def test_a_name_past_1024_bytes_is_kept_short(tmp_path):
    name = b"n" * 1100
    pkts = [cli(call(10, 3, 3, opaque(DIR_FH) + opaque(name))),
            srv(reply(10, 0, opaque(FILE_FH) + u32(0) + u32(0)))]
    r = eve_run(tmp_path, pkts, [], ["nfs"])
    (x,) = r.of("nfs")
    assert x["nfs"]["filename"] == "n" * 1024


def test_sunrpc_a_record_past_64kib_is_skipped(tmp_path):
    getport = call(7, 2, 3, u32(100003) + u32(3) + u32(17) + u32(0), prog=100000)
    big = call(8, 2, 3, b"\0" * 70000, prog=100000)
    c = Conv(sport=901, dport=111).handshake()
    c.send(True, mark(getport)).send(False, mark(reply(7, 0, u32(2049))))
    rec = mark(big)
    for i in range(0, len(rec), 32768):
        c.send(True, rec[i:i + 32768], seg=1400)
    c.send(True, mark(getport)).close()
    r = eve_run(tmp_path, c.pkts, [], ["flow"])
    n = r.counters("sunrpc")
    assert (n["sunrpc_records_skipped"], n["sunrpc_messages"]) == (1, 3)
