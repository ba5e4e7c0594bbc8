#!/usr/bin/env python3
"""Write docs/compatibility.md's "Suricata compatibility" table from facts.

Reads tools/suricata-keywords.txt (Suricata 8's rule keywords, by docs section) and
`osprey --list-keywords` (what Osprey's keyword registry knows and compiles), and replaces the
lines between the compat-table markers of docs/compatibility.md with one Markdown table per docs section
and a summary line. Run it after a change that adds or implements a keyword:

    python3 tools/compat-table.py                  # build/bin/osprey, docs/compatibility.md
    python3 tools/compat-table.py --stdout         # print the block instead of writing it
    python3 tools/compat-table.py --osprey build-asan/bin/osprey

tests/rules/test_compat_table.py fails when docs/compatibility.md differs from what this prints.
"""
import argparse
import csv
import io
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- compat-table begin -->"
END = "<!-- compat-table end -->"

SUPPORTED = "supported"
PARSED = "parsed, not compiled"
UNKNOWN = "not recognised"

# Docs section (the page's file name), in the order of Suricata 8's rules index -> (title, what a rule with it needs beyond packets and
# streams; shown for the keywords Osprey does not support). Sections of protocols Osprey
# parses name the parser; the others say that Osprey has none.
SECTIONS = {
    "meta": ("Meta", ""),
    "header-keywords": ("IP, TCP, UDP, ICMP headers", ""),
    "payload-keywords": ("Payload", ""),
    "integer-keywords": ("Integers", ""),
    "transforms": ("Transformations", ""),
    "prefilter-keywords": ("Prefiltering", ""),
    "flow-keywords": ("Flow", ""),
    "bypass-keyword": ("Bypass", "flow bypass"),
    "http-keywords": ("HTTP", "the HTTP/1.x parser (parsers/http)"),
    "file-keywords": ("Files", "file tracking in the HTTP parser"),
    "dns-keywords": ("DNS", "the DNS parser (parsers/dns)"),
    "mdns-keywords": ("mDNS", "an mDNS parser (Osprey has none)"),
    "tls-keywords": ("SSL/TLS", "the TLS parser (parsers/tls)"),
    "ssh-keywords": ("SSH", "the SSH parser (parsers/ssh: banners, KEXINIT and HASSH)"),
    "ja-keywords": ("JA3/JA4", "the TLS parser (parsers/tls)"),
    "modbus-keyword": ("Modbus", "a Modbus parser (Osprey has none)"),
    "dcerpc-keywords": ("DCERPC", "a DCERPC parser (Osprey has none)"),
    "dhcp-keywords": ("DHCP", "the DHCP parser (parsers/dhcp)"),
    "dnp3-keywords": ("DNP3", "a DNP3 parser (Osprey has none)"),
    "enip-keyword": ("ENIP/CIP", "an ENIP parser (Osprey has none)"),
    "ftp-keywords": ("FTP/FTP-DATA", "an FTP parser (Osprey has none)"),
    "kerberos-keywords": ("Kerberos", "the Kerberos 5 parser (parsers/krb5)"),
    "smb-keywords": ("SMB", "an SMB parser (Osprey has none)"),
    "snmp-keywords": ("SNMP", "the SNMP parser (parsers/snmp)"),
    "ntp-keywords": ("NTP", "the NTP parser (parsers/ntp)"),
    "base64-keywords": ("Base64", ""),
    "sip-keywords": ("SIP", "the SIP parser (parsers/sip)"),
    "sdp-keywords": ("SDP", "the SIP parser's SDP bodies (parsers/sip)"),
    "rfb-keywords": ("RFB", "the RFB parser (parsers/rfb)"),
    "mqtt-keywords": ("MQTT", "the MQTT parser (parsers/mqtt)"),
    "ike-keywords": ("IKE", "the IKE parser (parsers/ike)"),
    "http2-keywords": ("HTTP2", "the HTTP/2 parser (parsers/http2)"),
    "quic-keywords": ("QUIC", "a QUIC parser (Osprey has none)"),
    "nfs-keywords": ("NFS", "the NFS parser (parsers/nfs)"),
    "smtp-keywords": ("SMTP", "an SMTP parser (Osprey has none)"),
    "websocket-keywords": ("WebSocket", "the WebSocket parser (parsers/websocket)"),
    "app-layer": ("Generic app layer", "the app-layer parsers"),
    "decode-layer": ("Generic decode layer", "libmon's decoder events"),
    "xbits": ("Xbits", "the flow and host tables"),
    "noalert": ("Alert", ""),
    "thresholding": ("Thresholding", ""),
    "ip-reputation-rules": ("IP reputation", "an IP reputation set (Osprey has none)"),
    "ipaddr": ("IP address match", ""),
    "config": ("Config rules", ""),
    "datasets": ("Datasets", "dataset files (Osprey has none)"),
    "lua-detection": ("Lua", "Lua 5.4 (rules/lua/)"),
    "tag": ("Tag", "packet tagging"),
    "vlan-keywords": ("VLAN", ""),
    "ldap-keywords": ("LDAP", "the LDAP parser (parsers/ldap)"),
    "pgsql-keywords": ("PostgreSQL", "a PostgreSQL parser (Osprey has none)"),
    "email-keywords": ("Email", "an SMTP/MIME parser (Osprey has none)"),
    "undocumented": ("Not in the docs", ""),
}


def read_suricata(path):
    """[(keyword, section, [aliases])] in file order."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) < 2 or any(not w.startswith("alias=") for w in line[2:]):
                sys.exit(f"{path}:{n}: expected 'KEYWORD SECTION [alias=NAME]'")
            aliases = [a for w in line[2:] for a in w[len("alias="):].split(",")]
            rows.append((line[0], line[1], aliases))
    return rows


def read_osprey(osprey):
    """{keyword: row} from `osprey --list-keywords` (CSV with a header line)."""
    out = subprocess.run([osprey, "--list-keywords"], check=True, capture_output=True,
                         text=True).stdout
    return {r["keyword"]: r for r in csv.DictReader(io.StringIO(out))}


def status_of(name, aliases, known):
    """(status, note on the name Osprey knows it by)."""
    found = [n for n in [name] + aliases if n in known]
    done = [n for n in found if known[n]["status"] == "implemented"]
    if done:
        return SUPPORTED, "" if name in done else f"as `{done[0]}`"
    if found:
        return PARSED, "" if name in found else f"as `{found[0]}`"
    return UNKNOWN, ""


def generate(keywords, known):
    """The Markdown lines between the markers."""
    sections, counts = {}, {SUPPORTED: 0, PARSED: 0, UNKNOWN: 0}
    listed = set()
    for name, section, aliases in keywords:
        status, as_name = status_of(name, aliases, known)
        counts[status] += 1
        listed.update([name] + aliases)
        sections.setdefault(section, []).append((name, status, as_name))
    total = sum(counts.values())
    out = [f"**{counts[SUPPORTED]} of {total} Suricata 8 rule keywords supported** "
           f"({counts[PARSED]} more parsed, not compiled; {counts[UNKNOWN]} not recognised). "
           "Generated by `python3 tools/compat-table.py` from `tools/suricata-keywords.txt` "
           "and `osprey --list-keywords`; do not edit by hand.", ""]
    out += ["*supported*: a rule using it compiles and runs (an argument form Osprey does not "
            "run is still rejected, with its reason, by `osprey -T`); *parsed, not compiled*: "
            "checked, but its rules are rejected as `unsupported option`; *not recognised*: "
            "its rules are rejected as an unknown option.", ""]
    rank = {s: i for i, s in enumerate(SECTIONS)}
    for section, rows in sorted(sections.items(), key=lambda kv: rank.get(kv[0], len(rank))):
        title, needs = SECTIONS.get(section, (section, ""))
        ok = sum(1 for r in rows if r[1] == SUPPORTED)
        out += [f"#### {title} (`{section}`): {ok} of {len(rows)}", "",
                "| keyword | Osprey | note |", "|---|---|---|"]
        for name, status, as_name in rows:
            note = "; ".join(x for x in (as_name, f"needs {needs}" if needs and
                                         status != SUPPORTED else "") if x)
            out.append(f"| `{name}` | {status} | {note} |")
        out.append("")
    extra = sorted(k for k, r in known.items()
                   if "suricata" in r["dialects"].split("|") and k not in listed)
    out.append("Keywords Osprey accepts in Suricata rules that the list above lacks "
               f"(older spellings, or missing from `tools/suricata-keywords.txt`): "
               + ", ".join(f"`{k}`" for k in extra) + ".")
    return out


def splice(page_text, block):
    """The page's text with the lines between the markers replaced by block."""
    lines = page_text.split("\n")
    try:
        b, e = lines.index(BEGIN), lines.index(END)
    except ValueError:
        sys.exit(f"the page lacks the marker lines {BEGIN} / {END}")
    if e < b:
        sys.exit("the page's end marker comes before its begin marker")
    return "\n".join(lines[:b + 1] + block + lines[e:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--osprey", default=os.path.join(ROOT, "build/bin/osprey"))
    ap.add_argument("--keywords", default=os.path.join(ROOT, "tools/suricata-keywords.txt"))
    ap.add_argument("--page", "--readme", dest="page",
                    default=os.path.join(ROOT, "docs", "compatibility.md"),
                    help="the Markdown page holding the markers")
    ap.add_argument("--stdout", action="store_true", help="print the block, write nothing")
    a = ap.parse_args()
    block = generate(read_suricata(a.keywords), read_osprey(a.osprey))
    if a.stdout:
        print("\n".join(block))
        return
    with open(a.page, encoding="utf-8") as f:
        text = f.read()
    new = splice(text, block)
    if new != text:
        with open(a.page, "w", encoding="utf-8") as f:
            f.write(new)
    print(block[0].split("**")[1])


if __name__ == "__main__":
    main()
