#!/usr/bin/env python3
"""pipeline_rules.py — the rule set fuzz-pipeline loads: a few hundred ET Open rules from the
shared corpus that use many keywords and the HTTP, DNS and TLS buffers, picked the same way
every time (so campaigns are comparable).

Usage: tools/fuzz/pipeline_rules.py OUT [CORPUS]   (CORPUS default ../shared/corpus)
Writes OUT and prints how many rules it picked. Without the corpus it writes Osprey's demo
rules plus a few of its own, so the target still runs (with fewer keywords)."""
import os
import re
import sys

# (keyword that must appear, how many rules using it): the buffers first, then the
# keywords that take their own code paths in rules/options.
WANT = [
    ("http.uri", 40), ("http.header", 25), ("http.user_agent", 15), ("http.host", 15),
    ("http.method", 10), ("http.cookie", 8), ("http.request_body", 10), ("http.response_body", 10),
    ("http.stat_code", 8), ("http.content_type", 8), ("file.data", 15), ("http.start", 5),
    ("dns.query", 30), ("tls.sni", 20), ("tls.cert_subject", 8), ("tls.cert_issuer", 8),
    ("ja3.hash", 5), ("ja3s.hash", 5), ("tls.version", 3), ("ssl_state", 5),
    ("pcre:", 30), ("byte_test", 15), ("byte_jump", 15), ("byte_extract", 10),
    ("isdataat", 10), ("flowbits:set", 10), ("flowbits:isset", 10), ("xbits", 3),
    ("dsize", 10), ("base64_decode", 5), ("urilen", 5), ("threshold", 5), ("detection_filter", 5),
    ("stream_size", 3), ("app-layer-protocol", 5), ("fast_pattern", 10), ("itype", 5),
    ("bsize", 10), ("to_lowercase", 3), ("url_decode", 3), ("strip_whitespace", 3),
    ("smtp", 5), ("ftp", 5), ("ssh", 5), ("smb", 5), ("dcerpc", 5), ("krb5", 3), ("snmp", 3),
    ("sip", 3), ("ldap", 3), ("mqtt", 3), ("http2", 3),
]
FILES = "et-open-suricata-5.0-2025-08"

FALLBACK = r'''alert http any any -> any any (msg:"fuzz uri"; http.uri; content:"/"; sid:9000001;)
alert dns any any -> any any (msg:"fuzz dns"; dns.query; content:"."; sid:9000002;)
alert tls any any -> any any (msg:"fuzz sni"; tls.sni; content:"."; sid:9000003;)
alert tcp any any -> any any (msg:"fuzz pcre"; content:"a"; pcre:"/a.{0,20}b/s"; sid:9000004;)
'''


def main():
    out = sys.argv[1]
    corpus = sys.argv[2] if len(sys.argv) > 2 else "../shared/corpus"
    d = os.path.join(corpus, "rules", FILES)
    picked, seen = [], set()
    if os.path.isdir(d):
        lines = []
        for name in sorted(os.listdir(d)):
            if name.endswith(".rules"):
                with open(os.path.join(d, name), errors="replace") as f:
                    lines += [l.strip() for l in f if l.startswith("alert ")]
        for kw, n in WANT:
            k = 0
            for l in lines:
                if k >= n:
                    break
                m = re.search(r"sid:\s*(\d+)", l)
                if not m or m.group(1) in seen:
                    continue
                if kw in l or (kw.isalpha() and re.match(r"alert %s " % re.escape(kw), l)):
                    picked.append(l)
                    seen.add(m.group(1))
                    k += 1
    with open(out, "w") as f:
        if picked:
            f.write("\n".join(picked) + "\n")
        else:
            demo = os.path.join(os.path.dirname(__file__), "..", "..", "etc", "rules",
                                "osprey-demo.rules")
            with open(demo) as g:
                f.write(g.read())
            f.write(FALLBACK)
    print(f"{out}: {len(picked)} ET Open rules" if picked else f"{out}: demo rules (no corpus)")


if __name__ == "__main__":
    main()
