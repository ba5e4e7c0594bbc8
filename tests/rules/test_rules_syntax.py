"""The rule language, feature by feature: what `osprey --dump-rules` makes of each construct of
Snort 2.9, Snort 3 and Suricata/ET rules (header, variables, lists, escapes, buffers, the three
ways of saying "in the URI", transforms, comments and continued lines)."""
import pytest

from rules_helpers import dump1, dump_text, options

META = 'msg:"m"; sid:1;'
V4 = "::ffff:"

ANY_IP = ["0:0:0:0:0:0:0:0-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]


def opt1(rule, keyword):
    found = options(rule, keyword)
    assert len(found) == 1, rule["options"]
    return found[0]


# --- header ---------------------------------------------------------------------------------

@pytest.mark.parametrize("action", ["alert", "log", "pass", "drop", "reject", "rejectsrc",
                                    "rejectdst", "rejectboth", "sdrop", "block", "react",
                                    "rewrite"])
def test_actions(tmp_path, action):
    r = dump1(tmp_path, f"{action} tcp any any -> any any ({META})")
    assert r["action"] == action and r["status"] == "accepted"


@pytest.mark.parametrize("proto,canon", [
    ("ip", "ip"), ("tcp", "tcp"), ("udp", "udp"), ("icmp", "icmp"), ("http", "http"),
    ("dns", "dns"), ("tls", "tls"), ("ftp", "ftp"), ("smtp", "smtp"), ("ssh", "ssh"),
    ("smb", "smb"), ("ip6", "ipv6"), ("ikev2", "ike"), ("pkthdr", "pkthdr"),
    ("tcp-pkt", "tcp-pkt"), ("ftp-data", "ftp-data"), ("bittorrent-dht", "bittorrent-dht"),
    ("modbus", "modbus"), ("iec104", "iec104"),
    ("TCP", "tcp"),
])
def test_protocols(tmp_path, proto, canon):
    r = dump1(tmp_path, f"alert {proto} any any -> any any ({META})")
    assert r["proto"] == canon
    # the packet protocols, the parsers' protocols, and pkthdr (any packet: decoder-event rules)
    if canon in ("ip", "tcp", "udp", "icmp", "http", "dns", "tls", "ssh", "ftp", "ftp-data", "ipv6",
                 "tcp-pkt", "pkthdr", "smb", "smtp", "ike", "bittorrent-dht", "modbus"):
        assert r["status"] == "accepted"
    else:  # parsed, but detection does not run this protocol yet
        assert r["status"] == "rejected" and r["reason"] == f"unsupported protocol {canon}"


def test_bidirectional(tmp_path):
    r = dump1(tmp_path, f"alert tcp 1.2.3.4 any <> 5.6.7.8 80 ({META})")
    assert r["dir"] == "<>"
    assert r["src_ranges"] == ["1.2.3.4-1.2.3.4"] and r["dport_ranges"] == [[80, 80]]


def test_snort3_service_and_file_rules(tmp_path):
    r = dump1(tmp_path, f"alert http ({META})")
    assert (r["proto"], r["dialect"], r["src"], r["dport"]) == ("http", "snort3", "any", "any")
    assert r["src_ranges"] == ANY_IP and r["dport_ranges"] == [[0, 65535]]
    r = dump1(tmp_path, 'file_id (msg:"PDF"; file_meta:type PDF, id 22, category "PDF files"; '
                        'file_data; content:"| 25 50 44 46 |", depth 4, offset 0; gid:4; sid:17;)')
    assert (r["action"], r["proto"], r["gid"], r["sid"]) == ("file_id", "file", 4, 17)
    c = opt1(r, "content")
    assert (c["buffer"], c["pattern_hex"], c["depth"], c["offset"]) == ("file.data", "25504446",
                                                                         4, 0)


# --- addresses, ports, variables ------------------------------------------------------------

def test_nested_address_list(tmp_path):
    # HOME_NET defaults to 192.168/16, 10/8, 172.16/12: the nested list cancels out
    r = dump1(tmp_path, "alert ip [1.1.1.1,!$HOME_NET,[10.0.0.0/8,!10.1.0.0/16]] any -> any any "
                        f"({META})")
    assert r["src_ranges"] == ["1.1.1.1-1.1.1.1"]
    r = dump1(tmp_path, f"alert ip [10.0.0.0/8,!10.1.0.0/16] any -> any any ({META})")
    assert r["src_ranges"] == ["10.0.0.0-10.0.255.255", "10.2.0.0-10.255.255.255"]


def test_external_net_is_everything_but_home(tmp_path):
    r = dump1(tmp_path, f"alert ip $EXTERNAL_NET any -> $HOME_NET any ({META})")
    assert r["dst_ranges"] == ["10.0.0.0-10.255.255.255", "172.16.0.0-172.31.255.255",
                               "192.168.0.0-192.168.255.255"]
    assert r["src_ranges"][1:3] == ["11.0.0.0-172.15.255.255", "172.32.0.0-192.167.255.255"]
    assert r["src_ranges"][-1].endswith("-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")  # IPv6 too


def test_ipv6_and_ranges(tmp_path):
    r = dump1(tmp_path, f"alert ip [2001:db8::/32,::1] any -> 192.168.1.0/255.255.255.0 any ({META})")
    assert r["src_ranges"] == ["0:0:0:0:0:0:0:1-0:0:0:0:0:0:0:1",
                               "2001:db8:0:0:0:0:0:0-2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"]
    assert r["dst_ranges"] == ["192.168.1.0-192.168.1.255"]


@pytest.mark.parametrize("ports,ranges", [
    ("any", [[0, 65535]]), ("80", [[80, 80]]), ("1024:", [[1024, 65535]]),
    (":1024", [[0, 1024]]), ("[80,443,8000:8080]", [[80, 80], [443, 443], [8000, 8080]]),
    ("!80", [[0, 79], [81, 65535]]), ("[!1720,1024:2000]", [[1024, 1719], [1721, 2000]]),
    ("$HTTP_PORTS", [[80, 80]]), ("$FILE_DATA_PORTS", [[80, 80], [110, 110], [143, 143]]),
    ("!5800,!445", [[0, 444], [446, 5799], [5801, 65535]]),
])
def test_ports(tmp_path, ports, ranges):
    r = dump1(tmp_path, f"alert tcp any any -> any {ports} ({META})")
    assert r["dport_ranges"] == ranges and r["dport"] == ports


def test_variables_from_config_and_set(tmp_path):
    cfg = tmp_path / "osprey.yaml"
    cfg.write_text("vars:\n  address-groups:\n    HOME_NET: \"[10.1.0.0/16]\"\n"
                   "    DMZ: \"[$HOME_NET,!10.1.2.0/24]\"\n  port-groups:\n    WEB: \"[80,443]\"\n")
    r = dump1(tmp_path, f"alert tcp $DMZ any -> any $WEB ({META})", "-c", str(cfg))
    assert r["src_ranges"] == ["10.1.0.0-10.1.1.255", "10.1.3.0-10.1.255.255"]
    assert r["dport_ranges"] == [[80, 80], [443, 443]]
    r = dump1(tmp_path, f"alert tcp $DMZ any -> any $WEB ({META})", "-c", str(cfg),
              "--set", "vars.address-groups.HOME_NET=10.1.2.3")
    assert r["status"] == "rejected"
    assert r["reason"] == ("variable $DMZ is invalid: address '[$HOME_NET,!10.1.2.0/24]' "
                           "matches nothing (col 11)")


# --- lines, comments, escapes ---------------------------------------------------------------

def test_comments_disabled_rules_and_continuations(tmp_path):
    text = ("# a comment (with parentheses)\n"
            "\n"
            "#alert tcp any any -> any any (msg:\"one\"; sid:1;)\n"
            "# alert tcp any any -> any any (msg:\"two\"; sid:2;)\n"
            "## alert tcp any any -> any any (msg:\"three\"; sid:3;)\n"
            "# alert if STARTTLS was not followed by TLS\n"
            "alert tcp any any -> any any (msg:\"four\"; \\\n"
            "    sid:4; \\\n"
            "    rev:2;)\r\n"
            "\talert tcp any any -> any any (msg:\"five\"; sid:5;)   \r\n"
            "#alert tcp any any -> any any (msg:\"six\"; \\\n"
            "#    sid:6;)\n")
    rules = dump_text(tmp_path, text)
    assert [(r["sid"], r["status"], r["line"]) for r in rules] == [
        (1, "disabled", 3), (2, "disabled", 4), (3, "disabled", 5), (4, "accepted", 7),
        (5, "accepted", 10), (6, "disabled", 11)]
    assert rules[3]["rev"] == 2 and rules[3]["msg"] == "four"


def test_msg_escapes(tmp_path):
    r = dump1(tmp_path, r'alert tcp any any -> any any (msg:"a \"q\" \; b \: \\ (^IE[\d\s])"; sid:1;)')
    assert r["msg"] == 'a "q" ; b : \\ (^IE[\\d\\s])'
    r = dump1(tmp_path, "alert tcp any any -> any any (msg:unquoted words; sid:1;)")
    assert r["msg"] == "unquoted words"


def test_content_escapes_and_hex(tmp_path):
    r = dump1(tmp_path, r'alert tcp any any -> any any (content:"A|42 43|D|4445|\"\;\:\\\|"; '
                        r'content:!"|00|"; sid:1;)')
    a, b = options(r, "content")
    assert a["pattern_hex"] == "41424344444522" + "3b3a5c7c" and a["negated"] is False
    assert b["pattern_hex"] == "00" and b["negated"] is True


def test_semicolon_inside_quotes_snort3(tmp_path):
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"a;b"; content:"x;y",nocase; sid:1;)')
    assert r["msg"] == "a;b" and opt1(r, "content")["pattern_hex"] == "783b79"


def test_unescaped_quotes_inside_pcre(tmp_path):
    # ET writes quotes inside regexes unescaped; the string ends at the last quote
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"m"; '
                        'pcre:"/param\\s*=\\s*["\']?x["\']?/Ri"; sid:1;)')
    assert r["status"] == "accepted"
    assert opt1(r, "pcre")["value"].endswith('x["\']?/Ri"')


# --- the three ways to say "in the URI" -----------------------------------------------------

def test_classic_modifier(tmp_path):
    r = dump1(tmp_path, 'alert http any any -> any any (msg:"m"; content:"GET"; http_method; '
                        'content:"/a"; nocase; http_uri; depth:5; content:"x"; sid:1;)')
    assert r["dialect"] == "snort2"
    m, u, x = options(r, "content")
    assert (m["buffer"], u["buffer"], x["buffer"]) == ("http.method", "http.uri", "pkt_data")
    assert u["nocase"] is True and u["depth"] == 5


def test_uricontent(tmp_path):
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"m"; uricontent:"/cgi-bin"; nocase; sid:1;)')
    assert opt1(r, "uricontent")["buffer"] == "http.uri"


def test_snort3_sticky(tmp_path):
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"m"; http_uri; content:"/a"; '
                        'content:"/b",within 10; http_header; content:"H",nocase; pkt_data; '
                        'content:"p"; sid:1;)')
    assert r["dialect"] == "snort3"
    assert [c["buffer"] for c in options(r, "content")] == ["http.uri", "http.uri",
                                                             "http.header", "pkt_data"]
    assert options(r, "content")[1]["within"] == 10


def test_snort3_comma_arguments(tmp_path):
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"m"; content:"abc", offset 4, '
                        'depth 8, nocase, fast_pattern; content:"d",distance 0,within 4; sid:1;)')
    a, b = options(r, "content")
    assert (a["offset"], a["depth"], a["nocase"], a["fast_pattern"]) == (4, 8, True, True)
    assert (b["distance"], b["within"]) == (0, 4)


def test_suricata_sticky_and_transforms(tmp_path):
    r = dump1(tmp_path, 'alert http any any -> any any (msg:"m"; http.uri; to_lowercase; '
                        'url_decode; content:"/admin"; startswith; http.user_agent; '
                        'content:"curl"; endswith; sid:1;)')
    assert r["dialect"] == "suricata"
    u, a = options(r, "content")
    assert (u["buffer"], u["startswith"], a["buffer"], a["endswith"]) == (
        "http.uri", True, "http.user_agent", True)


def test_legacy_underscore_sticky_buffers(tmp_path):
    r = dump1(tmp_path, 'alert dns any any -> any any (msg:"m"; dns_query; content:"evil"; '
                        'tls_sni; content:"x"; sid:1;)')
    assert [c["buffer"] for c in options(r, "content")] == ["dns.query", "tls.sni"]


def test_pcre_buffer_flags(tmp_path):
    r = dump1(tmp_path, 'alert http any any -> any any (msg:"m"; pcre:"/a/Ui"; pcre:"/b/H"; '
                        'pcre:"m#c#s"; sid:1;)')
    assert [p["buffer"] for p in options(r, "pcre")] == ["http.uri", "http.header", "pkt_data"]


def test_byte_extract_variables(tmp_path):
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"m"; content:"a"; '
                        'byte_extract:2,0,len,relative,little; content:"b"; within:len; '
                        'byte_test:4,>,len,0,relative; sid:1;)')
    assert options(r, "content")[1]["within_var"] == "len"
    assert r["status"] == "accepted"  # byte_extract is implemented


def test_file_inherits_snort3(tmp_path):
    """A rule with no marker of its own is read like the Snort 3 rules before it."""
    rules = dump_text(tmp_path,
                      'alert tcp any any -> any any (msg:"a"; content:"x",nocase; sid:1;)\n'
                      'alert tcp any any -> any any (msg:"b"; content:"y"; http_uri; '
                      'content:"z"; sid:2;)\n')
    assert [r["dialect"] for r in rules] == ["snort3", "snort3"]
    # Snort 3: http_uri selects the buffer for the content after it
    assert [c["buffer"] for c in options(rules[1], "content")] == ["pkt_data", "http.uri"]
    # Alone, the same rule is classic: http_uri modifies the content before it
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"b"; content:"y"; http_uri; '
                        'content:"z"; sid:2;)')
    assert [c["buffer"] for c in options(r, "content")] == ["http.uri", "pkt_data"]


# --- rule-level options ---------------------------------------------------------------------

def test_identity_and_classification(tmp_path):
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"m"; classtype:trojan-activity; '
                        'sid:5; rev:3; gid:1; reference:cve,2020-1234; reference:URL,x.org/a,b; '
                        'metadata:created_at 2020_01_01, former_category TROJAN; '
                        'target:dest_ip;)')
    assert (r["status"], r["sid"], r["rev"], r["gid"], r["priority"]) == ("accepted", 5, 3, 1, 1)
    assert r["classtype"] == "trojan-activity"
    r = dump1(tmp_path, 'alert tcp any any -> any any (msg:"m"; classtype:Misc-Activity; '
                        'priority:2; sid:6;)')
    assert (r["priority"], r["classtype"]) == (2, "misc-activity")
    r = dump1(tmp_path, 'alert tcp any any -> any any (sid:7;)')
    assert (r["status"], r["gid"], r["rev"], r["priority"], r["msg"]) == ("accepted", 1, 0, 0,
                                                                          None)


def test_option_values_are_kept_as_written(tmp_path):
    r = dump1(tmp_path, r'alert tcp any any -> any any (msg:"m\;"; content:"a\;|41|", nocase; '
                        'reference:url,a.b/c; sid:1;)')
    assert [o["value"] for o in r["options"]] == ['"m\\;"', '"a\\;|41|", nocase', "url,a.b/c",
                                                  "1"]
