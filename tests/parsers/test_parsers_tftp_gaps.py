"""TFTP's lost datagrams and bounds (parsers/tftp/): a lost DATA block (the blocks after it
are out of order, skipped and counted: the file is cut short at the flow's end), a lost RRQ
(no transaction, no expected transfer: its blocks are no tftp-data), an ERROR cutting a
transfer, an OACK's blksize setting where the file ends — with the exact alerts, records
(against Suricata's EVE schema) and counters."""
from detect_helpers import CLI, SRV, rule, udp
from gap_helpers import eve_run

BODY = bytes(range(256)) * 6  # 1536 bytes: three full blocks of 512 and an empty last one
RRQ = b"\x00\x01boot.img\x00octet\x00"
RULES = [rule('content:"boot.img";', 1, proto="tftp"),
         rule("filesize:1536;", 2, proto="tftp-data"),
         rule('filename:"boot.img";', 3, proto="tftp-data")]


def block(n, data):
    return udp(b"\x00\x03" + n.to_bytes(2, "big") + data, src=SRV, dst=CLI, sport=3445,
               dport=50618)


def ack(n):
    return udp(b"\x00\x04" + n.to_bytes(2, "big"), sport=50618, dport=3445)


def transfer(blocks, size=512):
    pkts = []
    for i in blocks:
        pkts += [block(i, BODY[(i - 1) * size:i * size]), ack(i)]
    return pkts


def test_whole_transfer(tmp_path):
    r = eve_run(tmp_path, [udp(RRQ, sport=50618, dport=69)] + transfer([1, 2, 3, 4]), RULES,
                ["tftp", "files"])
    assert r.sids == [1, 2, 3]
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("CLOSED", 1536)
    assert r.counters("tftp_data")["tftp_data_blocks_skipped"] == 0


def test_a_lost_block_cuts_the_file(tmp_path):
    # block 2 is lost (the client's ACK of 1 again would ask for it; it never comes): blocks
    # 3 and 4 are out of order, skipped; the file ends cut short with the flow
    pkts = [udp(RRQ, sport=50618, dport=69)] + transfer([1, 3, 4])
    r = eve_run(tmp_path, pkts, RULES, ["tftp", "files"])
    assert r.sids == [1, 3]
    (f,) = r.of("fileinfo")
    assert f["app_proto"] == "tftp-data"
    assert (f["fileinfo"]["filename"], f["fileinfo"]["state"], f["fileinfo"]["size"]) == (
        "boot.img", "TRUNCATED", 512)
    assert r.counters("tftp_data")["tftp_data_blocks_skipped"] == 2
    assert [x["tftp"] for x in r.of("tftp")] == [
        {"packet": "read", "file": "boot.img", "mode": "octet"}]


def test_a_lost_request_leaves_the_transfer_unknown(tmp_path):
    r = eve_run(tmp_path, transfer([1, 2, 3, 4]), RULES, ["tftp", "files"])
    assert r.sids == []
    assert r.of("tftp") == [] and r.of("fileinfo") == []
    assert [f["app_proto"] for f in r.of("flow")] == ["failed"]


def test_an_error_cuts_the_transfer(tmp_path):
    err = udp(b"\x00\x05\x00\x03disk full\x00", src=SRV, dst=CLI, sport=3445, dport=50618)
    pkts = [udp(RRQ, sport=50618, dport=69)] + transfer([1, 2]) + [err]
    r = eve_run(tmp_path, pkts, RULES, ["tftp", "files"])
    assert r.sids == [1, 3]
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("TRUNCATED", 1024)


def test_an_oack_blksize_sets_where_the_file_ends(tmp_path):
    # blksize 1024 (RFC 2348): a block of 512 is not the last one any more
    rrq = b"\x00\x01boot.img\x00octet\x00blksize\x001024\x00"
    oack = udp(b"\x00\x06blksize\x001024\x00", src=SRV, dst=CLI, sport=3445, dport=50618)
    pkts = [udp(rrq, sport=50618, dport=69), oack, ack(0)] + transfer([1, 2], size=1024)
    r = eve_run(tmp_path, pkts, RULES, ["tftp", "files"])
    assert r.sids == [1, 2, 3]
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("CLOSED", 1536)
