"""ber_build.py — BER values for the Kerberos 5, LDAP and SNMP tests (and the fuzz seeds):
tlv(tag, bytes) with definite lengths, integers, strings, and the messages the tests send.
Not a test module (no test_ prefix)."""


def tlv(tag, body):
    n = len(body)
    if n < 0x80:
        ln = bytes([n])
    elif n < 0x100:
        ln = bytes([0x81, n])
    else:
        ln = bytes([0x82, n >> 8, n & 0xff])
    return bytes([tag]) + ln + body


def seq(*parts, tag=0x30):
    return tlv(tag, b"".join(parts))


def integer(v, tag=0x02):
    n = 1
    while not -(1 << (8 * n - 1)) <= v < (1 << (8 * n - 1)):
        n += 1
    return tlv(tag, v.to_bytes(n, "big", signed=True))


def string(s, tag=0x04):
    return tlv(tag, s.encode() if isinstance(s, str) else s)


def ctx(n, body):
    """an explicit context tag [n] around one value"""
    return tlv(0xa0 | n, body)


# ---- Kerberos 5 (RFC 4120) ----
def principal(kind, *names):
    return seq(ctx(0, integer(kind)), ctx(1, seq(*[string(x, 0x1b) for x in names])))


def enc_data(etype):
    return seq(ctx(0, integer(etype)), ctx(2, string(b"\x00" * 16)))


def krb_req(msg_type, cname, realm, sname):
    body = seq(ctx(0, tlv(0x03, b"\x00\x40\x81\x00\x10")),
               *([ctx(1, principal(1, *cname))] if cname else []),
               ctx(2, string(realm, 0x1b)), ctx(3, principal(2, *sname)), ctx(7, integer(1234)))
    return tlv(0x60 | msg_type, seq(ctx(1, integer(5)), ctx(2, integer(msg_type)), ctx(4, body)))


def krb_rep(msg_type, cname, realm, sname, etype, ticket_etype):
    ticket = tlv(0x61, seq(ctx(0, integer(5)), ctx(1, string(realm, 0x1b)),
                           ctx(2, principal(2, *sname)), ctx(3, enc_data(ticket_etype))))
    return tlv(0x60 | msg_type, seq(ctx(0, integer(5)), ctx(1, integer(msg_type)),
                                    ctx(3, string(realm, 0x1b)), ctx(4, principal(1, *cname)),
                                    ctx(5, ticket), ctx(6, enc_data(etype))))


def krb_error(code, realm, sname):
    return tlv(0x7e, seq(ctx(0, integer(5)), ctx(1, integer(30)),
                         ctx(4, string("20260101000000Z", 0x18)), ctx(5, integer(0)),
                         ctx(6, integer(code)), ctx(9, string(realm, 0x1b)),
                         ctx(10, principal(2, *sname))))


def record(msg):
    return len(msg).to_bytes(4, "big") + msg


# ---- LDAP (RFC 4511) ----
def ldap(msg_id, op):
    return seq(integer(msg_id), op)


def bind_request(msg_id, name, password="secret"):
    return ldap(msg_id, seq(integer(3), string(name), string(password, 0x80), tag=0x60))


def search_request(msg_id, base, attrs):
    return ldap(msg_id, seq(string(base), integer(2, 0x0a), integer(0, 0x0a), integer(0),
                            integer(0), tlv(0x01, b"\x00"), string("objectClass", 0x87),
                            seq(*[string(a) for a in attrs]), tag=0x63))


def search_entry(msg_id, dn, attrs):
    return ldap(msg_id, seq(string(dn), seq(*[seq(string(t), seq(*[string(v) for v in vals],
                                                                  tag=0x31))
                                              for t, vals in attrs]), tag=0x64))


def ldap_result(msg_id, op_tag, code, dn="", message=""):
    return ldap(msg_id, seq(integer(code, 0x0a), string(dn), string(message), tag=op_tag))


# ---- SNMP (RFC 1157, 3416, 3412/3414) ----
SYSDESCR = bytes([0x2b, 6, 1, 2, 1, 1, 1, 0])  # 1.3.6.1.2.1.1.1.0


def snmp_v2c(pdu_tag, community, version=1):
    vb = seq(seq(tlv(0x06, SYSDESCR), tlv(0x05, b"")))
    return seq(integer(version), string(community),
               seq(integer(77), integer(0), integer(0), vb, tag=pdu_tag))


def snmp_v3(user, encrypted):
    usm = seq(string("engine"), integer(1), integer(2), string(user), string(""), string(""))
    hdr = seq(integer(9), integer(65507), string(b"\x07"), integer(3))
    vb = seq(seq(tlv(0x06, SYSDESCR), tlv(0x05, b"")))
    data = string(b"ciphertext") if encrypted else seq(
        string("engine"), string(""), seq(integer(1), integer(0), integer(0), vb, tag=0xa0))
    return seq(integer(3), hdr, string(usm), data)
