"""dataset and datarep: the sticky buffer (after its transforms) looked up in, added to or
removed from a named set, as Suricata's datasets; set files in Suricata's format (strings in
base64, digests in hex, addresses in text, optional ",reputation")."""
import base64
import hashlib

import pytest
from scapy.layers.dns import DNS, DNSQR
from scapy.layers.inet import IP, UDP

from detect_helpers import check_rejected_alone, CLI, SRV, detect, rule


def q(name, sport=5353):
    return IP(src=CLI, dst=SRV) / UDP(sport=sport, dport=53) / DNS(rd=1, qd=DNSQR(qname=name))


def pairs(r):
    return [(a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts]


def b64(s):
    return base64.b64encode(s.encode()).decode()


def test_set_matches_only_a_new_value(tmp_path):
    rules = [rule("dns.query; dataset:set,seen,type string;", sid=1, proto="dns")]
    r = detect(tmp_path, [q("a.example"), q("b.example", 5354), q("a.example", 5355)], rules)
    assert pairs(r) == [(1, 1), (2, 1)]  # the second a.example is in the set already


def test_isset_isnotset_from_a_loaded_file_relative_to_the_rules(tmp_path):
    (tmp_path / "bad.lst").write_text(b64("evil.example") + "\n\n" + b64("worse.example") + "\n")
    rules = [rule("dns.query; dataset:isset,bad,type string,load bad.lst;", sid=1, proto="dns"),
             rule("dns.query; dataset:isnotset,bad,type string,load bad.lst;", sid=2,
                  proto="dns")]
    pkts = [q("evil.example"), q("evil.exampl", 5354), q("worse.example", 5355)]
    assert pairs(detect(tmp_path, pkts, rules)) == [(1, 1), (2, 2), (3, 1)]


def test_unset_removes_and_isset_follows(tmp_path):
    rules = [rule("dns.query; dataset:set,s,type string;", sid=1, proto="dns",
                  hdr="any 5353 -> any any"),
             rule("dns.query; dataset:unset,s,type string;", sid=2, proto="dns",
                  hdr="any 6000 -> any any"),
             rule("dns.query; dataset:isset,s,type string;", sid=3, proto="dns",
                  hdr="any [5354,5355] -> any any")]
    pkts = [q("a.x"), q("a.x", 5354), q("a.x", 6000), q("a.x", 5355), q("b.x", 6000)]
    r = detect(tmp_path, pkts, rules)
    # unset matches when it removed the value: not for b.x, never added
    assert pairs(r) == [(1, 1), (2, 3), (3, 2)]


def test_save_and_state_files_are_written_at_exit(tmp_path):
    (tmp_path / "st.lst").write_text(b64("old.example") + "\n")
    rules = [rule("dns.query; dataset:set,saved,type string,save out.lst;", sid=1, proto="dns"),
             rule("dns.query; dataset:set,kept,type string,state st.lst;", sid=2, proto="dns"),
             rule("dns.query; to_md5; dataset:set,digests,type md5,save md5.lst;", sid=3,
                  proto="dns")]
    r = detect(tmp_path, [q("new.example"), q("old.example", 5354)], rules)
    assert pairs(r) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 3)]
    assert sorted((tmp_path / "out.lst").read_text().splitlines()) == \
        sorted([b64("new.example"), b64("old.example")])
    assert sorted((tmp_path / "st.lst").read_text().splitlines()) == \
        sorted([b64("old.example"), b64("new.example")])
    assert sorted((tmp_path / "md5.lst").read_text().splitlines()) == \
        sorted(hashlib.md5(n.encode()).hexdigest() for n in ["new.example", "old.example"])


def test_a_missing_state_file_is_an_empty_set(tmp_path):
    rules = [rule("dns.query; dataset:isnotset,fresh,type string,state fresh.lst;", sid=1,
                  proto="dns")]
    r = detect(tmp_path, [q("x.example")], rules)
    assert pairs(r) == [(1, 1)]
    assert (tmp_path / "fresh.lst").read_text() == ""


@pytest.mark.parametrize("op,value,hit", [
    (">", 99, True), (">", 100, False), ("<", 101, True), ("<=", 100, True),
    (">=", 101, False), ("==", 100, True), ("==", 99, False),
])
def test_datarep_compares_the_reputation(tmp_path, op, value, hit):
    h = hashlib.sha256(b"rep.example").hexdigest()
    (tmp_path / "rep.lst").write_text(f"{h},100\n{hashlib.sha256(b'x').hexdigest()},5\n")
    rules = [rule(f"dns.query; to_sha256; datarep:r,{op},{value},load rep.lst,type sha256;",
                  sid=1, proto="dns")]
    r = detect(tmp_path, [q("rep.example"), q("other.example", 5354)], rules)
    assert pairs(r) == ([(1, 1)] if hit else [])


def test_address_sets_take_a_four_byte_buffer_as_ipv4(tmp_path):
    # "abcd" is 97.98.99.100 as four bytes; an ip set holds it as ::ffff:97.98.99.100
    (tmp_path / "ip.lst").write_text("::ffff:97.98.99.100\n2001:db8::1\n")
    (tmp_path / "v4.lst").write_text("97.98.99.100,7\n")
    rules = [rule("dns.query; dataset:isset,ips,type ip,load ip.lst;", sid=1, proto="dns"),
             rule("dns.query; dataset:isset,v4,type ipv4,load v4.lst;", sid=2, proto="dns"),
             rule("dns.query; datarep:v4,==,7;", sid=3, proto="dns")]
    r = detect(tmp_path, [q("abcd"), q("abce", 5354), q("abcde", 5355)], rules)
    assert pairs(r) == [(1, 1), (1, 2), (1, 3)]


def test_memcap_full_set_drops_values_and_says_so(tmp_path):
    rules = [rule("dns.query; dataset:set,small,type string,memcap 100;", sid=1, proto="dns")]
    pkts = [q(f"host{i}.example", 6000 + i) for i in range(10)]
    r = detect(tmp_path, pkts, rules)
    # each value costs its node (24 bytes) and its bytes: 100 bytes hold three of these
    assert [p for p, _ in pairs(r)] == [1, 2, 3]
    assert "dataset small: memcap reached, 7 values not added" in r.proc.stderr


@pytest.mark.parametrize("body,why", [
    ("dns.query; dataset:set,n;", "not compiled: dataset: set n has no type"),
    ("dns.query; dataset:isset,n,type string,load nowhere.lst;", "cannot read"),
    ("dns.query; dataset:frob,n,type string;", "dataset command"),
    ("dns.query; dataset:set,n,type float;", "dataset type"),
    ("dns.query; dataset:set,n,type string,state a,save b;", "state cannot be combined"),
    ("dns.query; dataset:set,n,type string,memcap 1zb;", "invalid size"),
    ("dns.query; datarep:n,!,3,type string;", "datarep operator"),
    ("dns.query; datarep:n,>,70000,type string;", "reputation value"),
    ("dns.query; datarep:n,>,1,type string,save x;", "unknown datarep field 'save'"),
])
def test_bad_dataset_rejects_that_rule_only(tmp_path, body, why):
    check_rejected_alone(tmp_path, body, why, q("x.example"), proto="dns",
                         other='dns.query; content:"x";')


def test_json_and_ndjson_load_files(tmp_path):
    """Suricata 8's `format json` / `ndjson`: each object's value_key (dotted), from the
    document's array or the one at array_key; strings as they are (not base64)."""
    md5 = hashlib.md5(b"evil.example").hexdigest()
    (tmp_path / "top.json").write_text(
        '[{"host": "evil.example", "year": 2005}, {"other": 1}, '
        '{"host": "w\\u00e9.example"}, 7]')
    (tmp_path / "nested.json").write_text(
        '{"info": {"threat": [{"host": {"fqdn": "worse.example"}}, {"host": {}}]}, "x": [1]}')
    (tmp_path / "lines.ndjson").write_text(
        '{"h": "evil.example"}\n\n{"h": "worse.example", "n": [1, {"a": null}]}\n')
    (tmp_path / "md5.json").write_text(f'[{{"hash": "{md5}"}}]')
    rules = [
        rule("dns.query; dataset:isset,top,type string,load top.json,format json,"
             "context_key t,value_key host;", sid=1, proto="dns"),
        rule("dns.query; dataset:isset,nested,type string,load nested.json,format json,"
             "value_key host.fqdn,array_key info.threat;", sid=2, proto="dns"),
        rule("dns.query; dataset:isset,lines,type string,load lines.ndjson,format ndjson,"
             "value_key h;", sid=3, proto="dns"),
        rule("dns.query; to_md5; dataset:isset,digest,type md5,load md5.json,format json,"
             "value_key hash,remove_key;", sid=4, proto="dns"),
    ]
    pkts = [q("evil.example"), q("worse.example", 5354), q("other.example", 5355)]
    assert pairs(detect(tmp_path, pkts, rules)) == [(1, 1), (1, 3), (1, 4), (2, 2), (2, 3)]


@pytest.mark.parametrize("body,text,why", [
    ("format json", "[1,", "not the JSON of format json"),
    ("format json,array_key a.b", '{"a": {"c": []}}', "with array_key a.b"),
    ("format ndjson", '{"v": "x"} junk', "not the JSON of format ndjson"),
    ("format json", '{"v": "x"}', "not the JSON of format json"),
])
def test_bad_json_load_file_rejects_its_rule(tmp_path, body, text, why):
    (tmp_path / "j").write_text(text)
    check_rejected_alone(tmp_path, f"dns.query; dataset:isset,j,type string,load j,{body},"
                         "value_key v;", why, q("x.example"), proto="dns",
                         other='dns.query; content:"x";')


@pytest.mark.parametrize("body,why", [
    ("dataset:isset,n,type string,load a,format json;", "format json needs value_key"),
    ("dataset:isset,n,type string,load a,format xml,value_key v;", "dataset format"),
    ("dataset:isset,n,type string,load a,format ndjson,value_key v,array_key x;",
     "array_key needs format json"),
    ("dataset:set,n,type string,save a,format json,value_key v;", "read only"),
])
def test_bad_json_dataset_arguments(tmp_path, body, why):
    check_rejected_alone(tmp_path, "dns.query; " + body, why, q("x.example"), proto="dns",
                         other='dns.query; content:"x";')


def test_bad_value_in_a_file_names_file_and_line(tmp_path):
    (tmp_path / "h.lst").write_text("00112233445566778899aabbccddeeff\nnot-hex\n")
    rules = [rule("dns.query; to_md5; dataset:isset,h,type md5,load h.lst;", sid=7,
                  proto="dns"),
             rule("dns.query; to_md5; dataset:isset,h,type sha256;", sid=9, proto="dns")]
    r = detect(tmp_path, [q("x.example")], rules)
    assert "h.lst:2: bad value 'not-hex'" in r.proc.stderr
    assert pairs(r) == []


def test_datasets_config_defaults_and_enabled(tmp_path):
    rules = [rule("dns.query; dataset:set,d,type string;", sid=1, proto="dns"),
             rule('dns.query; content:"host";', sid=2, proto="dns")]
    pkts = [q(f"host{i}.example", 6000 + i) for i in range(4)]
    # datasets.defaults.memcap is the memcap of a set whose rule gives none
    r = detect(tmp_path, pkts, rules, "--set", "datasets.defaults.memcap=70", name="cap")
    assert [p for p, s in pairs(r) if s == 1] == [1, 2]
    assert "dataset d: memcap reached, 2 values not added" in r.proc.stderr
    r = detect(tmp_path, pkts, rules, "--set", "datasets.enabled=no", name="off")
    assert r.sids == [2, 2, 2, 2]
    assert "sid 1: not compiled: dataset: datasets are disabled (datasets.enabled: no)" in \
        r.proc.stderr


def test_ip_src_and_ip_dst_buffers(tmp_path):
    from scapy.layers.inet6 import IPv6
    from scapy.layers.l2 import Ether
    (tmp_path / "v4.lst").write_text(f"{CLI}\n")
    (tmp_path / "ip.lst").write_text(f"::ffff:{SRV}\n2001:db8::2\n")
    rules = [rule("ip.src; dataset:isset,v4,type ipv4,load v4.lst;", sid=1, proto="udp"),
             rule("ip.dst; dataset:isset,v4,type ipv4;", sid=2, proto="udp"),
             rule("ip.dst; dataset:isset,ip,type ip,load ip.lst;", sid=3, proto="udp"),
             rule('ip.src; content:"x";', sid=4, proto="udp")]
    pkts = [Ether() / p for p in [q("a"), IP(src=SRV, dst=CLI) / UDP(sport=53, dport=5353),
                                  IPv6(src="2001:db8::1", dst="2001:db8::2") /
                                  UDP(sport=1, dport=2)]]
    r = detect(tmp_path, pkts, rules)
    assert pairs(r) == [(1, 1), (1, 3), (2, 2), (3, 3)]
    assert "sid 4: unsupported option content: content in a buffer Osprey does not fill yet" \
        in r.proc.stderr
