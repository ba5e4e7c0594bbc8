#!/usr/bin/env python3
"""make_seeds.py — seed inputs for the fuzz targets of tools/fuzz/run.sh, in each target's
input format (the top comment of its fuzz_<target>.c), cut from the shared capture corpus
(../shared/corpus/pcaps) and the shipped configuration, plus a few made here.

Usage: tools/fuzz/make_seeds.py TARGET OUTDIR [CORPUS]
  TARGET: decode | defrag | flow | pipeline | config
  --synthetic-only as TARGET's suffix (e.g. flow:synthetic) writes only the seeds made here
  (what is committed under the target's corpus/ dir).
Prints how many seeds it wrote. Seeds are small (a few KiB at most)."""
import glob
import os
import struct
import sys

# fuzz_stack.h's FZ_LINKTYPES: a link type's index is the seed's first byte
LINKTYPES = [1, 0, 9, 10, 12, 14, 50, 51, 101, 104, 108, 113, 228, 229, 239, 276, 147]
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def packets(path, limit):
    """(linktype, ts_us, frame) of the first `limit` packets of a pcap or pcapng file."""
    from scapy.utils import RawPcapReader
    out = []
    try:
        r = RawPcapReader(path)
    except Exception:
        return out
    try:
        for data, meta in r:
            lt = getattr(meta, "linktype", None)
            if lt is None:
                lt = getattr(r, "linktype", 1)
            if hasattr(meta, "sec"):
                ts = meta.sec * 1000000 + meta.usec
            else:
                res = getattr(meta, "tsresol", 1000000) or 1000000
                ts = ((meta.tshigh << 32) | meta.tslow) * 1000000 // res
            out.append((lt, ts, bytes(data)))
            if len(out) >= limit:
                break
    except Exception:
        pass
    finally:
        r.close()
    return out


def pcaps(corpus, *dirs):
    for d in dirs:
        yield from sorted(glob.glob(os.path.join(corpus, "pcaps", d, "*.pcap*")))


def write(outdir, name, data, seen):
    if data in seen:
        return 0
    seen.add(data)
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(data)
    return 1


def tunnel_frames():
    """One Ethernet frame per encapsulation the decoder knows, each carrying a TCP SYN."""
    from scapy.all import GRE, IP, PPP, TCP, UDP, VXLAN, Dot1AD, Dot1Q, Ether, IPv6, PPPoE, PPPoED, Raw
    from scapy.contrib.mpls import MPLS
    from scapy.contrib.geneve import GENEVE
    from scapy.contrib.gtp import GTP_U_Header
    from scapy.contrib.erspan import ERSPAN_II, ERSPAN_III
    syn = TCP(sport=1234, dport=80, flags="S")
    inner4 = IP(src="10.1.0.1", dst="10.1.0.2") / syn
    inner6 = IPv6(src="2001:db8::1", dst="2001:db8::2") / syn
    outer = Ether() / IP(src="192.0.2.1", dst="192.0.2.2")
    frames = {
        "ipv4-tcp": Ether() / inner4,
        "ipv6-tcp": Ether() / inner6,
        "qinq": Ether() / Dot1AD(vlan=10) / Dot1Q(vlan=20) / inner4,
        "mpls": Ether() / MPLS(label=16, s=0) / MPLS(label=17, s=1) / inner4,
        "mpls-pw-cw": Ether() / MPLS(label=16, s=1) / Raw(b"\x00\x00\x00\x00") / Ether() / inner4,
        "pppoe": Ether(type=0x8864) / PPPoE(sessionid=1) / PPP(proto=0x0021) / inner4,
        "nsh": Ether(type=0x894F) / Raw(bytes([0x0f, 0xc2, 0x02, 0x01, 0, 0, 1, 255])) / inner4,
        "pppoe-discovery": Ether(type=0x8863) / PPPoED(code=0x09),
        "gre": outer / GRE(proto=0x0800) / inner4,
        "gre-key-seq": outer / GRE(proto=0x86dd, key_present=1, key=5, seqnum_present=1, seqence_number=1) / inner6,
        "erspan2": outer / GRE(proto=0x88be, seqnum_present=1) / ERSPAN_II(session_id=1) / Ether() / inner4,
        "erspan3": outer / GRE(proto=0x22eb, seqnum_present=1) / ERSPAN_III(session_id=1) / Ether() / inner4,
        "ipip": outer / inner4,
        "6in4": Ether() / IP(src="192.0.2.1", dst="192.0.2.2", proto=41) / inner6,
        "4in6": Ether() / IPv6(src="2001:db8::9", dst="2001:db8::a", nh=4) / inner4,
        "vxlan": outer / UDP(sport=1, dport=4789) / VXLAN(vni=5) / Ether() / inner4,
        "geneve": outer / UDP(sport=1, dport=6081) / GENEVE(vni=5, proto=0x6558) / Ether() / inner4,
        "teredo": outer / UDP(sport=3544, dport=3544) / inner6,
        "gtpu": outer / UDP(sport=2152, dport=2152) / GTP_U_Header(teid=1) / inner4,
        "gre-udp": outer / UDP(sport=1, dport=4754) / GRE(proto=0x0800) / inner4,
        "mpls-udp": outer / UDP(sport=1, dport=6635) / MPLS(label=16, s=1) / inner4,
        "ipv4-frag": Ether() / IP(src="10.1.0.1", dst="10.1.0.2", flags="MF", proto=6) / Raw(bytes(16)),
        "ipv6-ext": Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2", nh=0) / Raw(b"\x2b\x00" + bytes(6) + b"\x06\x00\x00\x00\x00\x00\x00\x00") / syn,
    }
    for name, f in frames.items():
        try:
            yield name, bytes(f)
        except Exception:
            pass


def decode_seeds(corpus, outdir, synthetic):
    seen, n = set(), 0
    if synthetic:
        for name, frame in tunnel_frames():
            n += write(outdir, name, bytes([0, 0]) + frame, seen)
        return n
    for path in pcaps(corpus, "tunnels", "malformed", "ipv6", "checksums", "frag", "misc"):
        base = os.path.basename(path).split(".")[0]
        for i, (lt, _, frame) in enumerate(packets(path, 4)):
            if lt not in LINKTYPES:
                continue
            n += write(outdir, f"{base}-{i}", bytes([LINKTYPES.index(lt), 0]) + frame[:768], seen)
    return n


def defrag_seeds(outdir):
    """A 24-byte datagram in fragments, in order, reversed and overlapping, v4 and v6, for every
    policy: options byte, then records ctl, offset (2), len, dt, data."""
    seen, n = set(), 0
    data = bytes(range(24))
    shapes = {
        "inorder": [(1, 0, data[:16]), (0, 2, data[16:])],
        "reversed": [(0, 2, data[16:]), (1, 0, data[:16])],
        "overlap": [(1, 0, data[:16]), (1, 1, b"X" * 8), (0, 2, data[16:])],
        "dup-last": [(0, 2, data[16:]), (0, 2, b"Y" * 8), (1, 0, data[:16])],
    }
    for v6 in (0, 1):
        for pol in range(6):
            for name, frags in shapes.items():
                b = bytes([v6 | pol << 1])
                for mf, off, d in frags:
                    b += bytes([mf | 8]) + struct.pack(">H", off) + bytes([len(d), 0]) + d
                n += write(outdir, f"v{6 if v6 else 4}-pol{pol}-{name}", b, seen)
    return n


def flow_record(ctl, flags, dseq, dack, dt, topt, data):
    return struct.pack(">BBhhBBB", ctl, flags, dseq, dack, dt, topt, len(data)) + data


def flow_synthetic(outdir, seen):
    """A handshake, a request and a response, a close: in order, with options, and split."""
    n = 0
    req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"
    rsp = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"
    conv = [flow_record(8, 0x02, 0, 0, 0, 0x0f | 0x70, b""), flow_record(9, 0x12, 0, 0, 1, 0x0f, b""),
            flow_record(8, 0x10, 0, 0, 1, 1, b""), flow_record(8, 0x18, 0, 0, 1, 1, req),
            flow_record(9, 0x18, 0, 0, 1, 1, rsp), flow_record(8, 0x11, 0, 0, 1, 1, b""),
            flow_record(9, 0x11, 0, 0, 1, 1, b""), flow_record(8, 0x10, 0, 0, 1, 1, b"")]
    n += write(outdir, "handshake-http-close", b"\x00\x00" + b"".join(conv), seen)
    ooo = [conv[0], conv[1], conv[2], flow_record(8, 0x18, 10, 0, 1, 0, req[10:]),
           flow_record(8, 0x18, 0, 0, 1, 0, req[:12])]
    n += write(outdir, "out-of-order-overlap", b"\x00\x00" + b"".join(ooo), seen)
    n += write(outdir, "midstream-wrap", b"\x01\x10" + b"".join(conv[3:]), seen)
    return n


def flow_seeds(corpus, outdir, synthetic):
    seen = set()
    n = flow_synthetic(outdir, seen)
    if synthetic:
        return n
    from scapy.layers.inet import IP, TCP
    from scapy.layers.inet6 import IPv6
    from scapy.layers.l2 import Ether
    for path in pcaps(corpus, "tcp", "http", "tls"):
        conv, key, isn, nxt, last_ts, syn_seen = [], None, {}, {}, None, False
        for lt, ts, frame in packets(path, 40):
            try:
                pkt = Ether(frame) if lt == 1 else IP(frame)
            except Exception:
                continue
            if TCP not in pkt or (IP not in pkt and IPv6 not in pkt):
                continue
            ip = pkt[IP] if IP in pkt else pkt[IPv6]
            t = pkt[TCP]
            k = (ip.src, t.sport, ip.dst, t.dport)
            if key is None:
                key = k
                syn_seen = bool(t.flags & 2)
            if k == key:
                d = 0
            elif k == (key[2], key[3], key[0], key[1]):
                d = 1
            else:
                continue
            if d not in isn:
                isn[d] = t.seq
                nxt[d] = 0
            payload = bytes(t.payload)
            dt = 0 if last_ts is None else min(127, max(0, (ts - last_ts) // 10000))
            last_ts = ts
            topt = 0
            for o in t.options:
                if o[0] == "Timestamp":
                    topt |= 1
                elif o[0] == "WScale":
                    topt |= 2 | (min(int(o[1]), 15) << 4)
                elif o[0] == "MSS":
                    topt |= 4
                elif o[0] == "SAckOK":
                    topt |= 8
            flags = int(t.flags) & 0xff
            chunks = [payload[i:i + 255] for i in range(0, len(payload), 255)] or [b""]
            rel = (t.seq - isn[d]) & 0xffffffff
            for j, ch in enumerate(chunks):
                dseq = max(-32768, min(32767, rel - nxt[d]))
                rack = ((t.ack - isn[1 - d]) & 0xffffffff) if (1 - d) in isn else 0
                dack = max(-32768, min(32767, rack - nxt.get(1 - d, 0)))
                f = flags if j == len(chunks) - 1 else flags & ~0x03
                conv.append(flow_record(8 | d, f, dseq, dack, dt, topt, ch))
                nxt[d] = (nxt[d] + dseq + len(ch) + (1 if f & 2 else 0) + (1 if f & 1 else 0)) & 0xffffffff
                rel += len(ch)
                dt = 0
        if len(conv) >= 3:
            opts = b"\x00\x00" if syn_seen else b"\x01\x00"
            blob = opts + b"".join(conv)
            n += write(outdir, os.path.basename(path).split(".")[0], blob[:6000], seen)
    return n


def pcap_file(lt, pkts):
    b = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, lt)
    for ts, frame in pkts:
        b += struct.pack("<IIII", ts // 1000000, ts % 1000000, len(frame), len(frame)) + frame
    return b


def pipeline_seeds(corpus, outdir, synthetic):
    seen, n = set(), 0
    if synthetic:
        return n
    for path in pcaps(corpus, "http", "dns", "tls", "tunnels", "frag", "tcp", "misc", "malformed",
                      "malware-exploit"):
        pk = packets(path, 24)
        if not pk:
            continue
        lt = pk[0][0]
        pk = [(ts, fr[:1600]) for l, ts, fr in pk if l == lt]
        while pk and len(pcap_file(lt, pk)) > 12000:
            pk.pop()
        if pk:
            n += write(outdir, os.path.basename(path).split(".")[0], pcap_file(lt, pk), seen)
    return n


def config_seeds(outdir, synthetic):
    """The shipped osprey.yaml cut into its top-level sections, and a few --set lines."""
    seen, n = set(), 0
    with open(os.path.join(ROOT, "etc", "osprey.yaml"), "rb") as f:
        text = f.read()
    sections, cur = [], []
    for line in text.splitlines(keepends=True):
        if line[:1] not in (b" ", b"#", b"\n", b"-", b"%") and cur:
            sections.append(b"".join(cur))
            cur = []
        cur.append(line)
    sections.append(b"".join(cur))
    n += write(outdir, "sets", b"%YAML 1.1\n---\nflow:\n  memcap: 64mb\n\x00flow.hash-size=4096\x00"
               b"vars.address-groups.HOME_NET=[10.0.0.0/8]\x00outputs.eve-log.types=[alert,http]", seen)
    n += write(outdir, "anchors", b"a: &x {b: 1}\nc: *x\nvars:\n  address-groups:\n    X: '[1.2.3.4]'\n", seen)
    if synthetic:
        return n
    for i, s in enumerate(sections):
        if len(s) <= 4096:
            n += write(outdir, f"osprey-yaml-{i:02d}", b"%YAML 1.1\n---\n" + s, seen)
    return n


def main():
    target, outdir = sys.argv[1], sys.argv[2]
    corpus = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "..", "shared", "corpus")
    synthetic = target.endswith(":synthetic")
    target = target.split(":")[0]
    os.makedirs(outdir, exist_ok=True)
    if not synthetic and not os.path.isdir(os.path.join(corpus, "pcaps")) and target not in ("defrag", "config"):
        print(f"{target}: no capture corpus at {corpus}: no seeds")
        return
    n = {"decode": lambda: decode_seeds(corpus, outdir, synthetic),
         "defrag": lambda: defrag_seeds(outdir),
         "flow": lambda: flow_seeds(corpus, outdir, synthetic),
         "pipeline": lambda: pipeline_seeds(corpus, outdir, synthetic),
         "config": lambda: config_seeds(outdir, synthetic)}[target]()
    print(f"{target}: {n} seeds in {outdir}")


if __name__ == "__main__":
    main()
