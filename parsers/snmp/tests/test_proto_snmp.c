/* test_proto_snmp.c — SNMP's descriptor, bytes in, buffers out: a v2c get and its response,
 * a v1 trap, a v3 request with its USM user name and an encrypted v3 PDU, each datagram a
 * transaction (snmp.community / snmp.usm, snmp.version, snmp.pdu_type); the OIDs as the
 * record writes them; malformed datagrams and the probe. */
#include "ber_build.h"
#include "proto_harness.h"
#include "snmp_int.h"
#include "unit.h"

static const uint8_t OID_SYSDESCR[] = {0x2b, 6, 1, 2, 1, 1, 1, 0}; /* 1.3.6.1.2.1.1.1.0 */

static struct bb varbinds(void)
{
    return BB_SEQ(BB_SEQ(bb_tlv(0x06, OID_SYSDESCR, sizeof OID_SYSDESCR), bb_tlv(0x05, "", 0)));
}

static struct bb v2c(uint8_t pdu_tag, const char *community)
{
    return BB_SEQ(bb_int(0x02, 1), bb_str(0x04, community),
                  BB_CONS(pdu_tag, bb_int(0x02, 77), bb_int(0x02, 0), bb_int(0x02, 0),
                          varbinds()));
}

static struct bb trap_v1(void)
{
    return BB_SEQ(bb_int(0x02, 0), bb_str(0x04, "public"),
                  BB_CONS(0xa4, bb_tlv(0x06, OID_SYSDESCR, 6), bb_tlv(0x40, "\x0a\x00\x00\x01", 4),
                          bb_int(0x02, 3), bb_int(0x02, 0), bb_int(0x43, 1000), varbinds()));
}

static struct bb v3(bool encrypted, const char *user)
{
    struct bb usm = BB_SEQ(bb_str(0x04, "engine"), bb_int(0x02, 1), bb_int(0x02, 2),
                           bb_str(0x04, user), bb_str(0x04, ""), bb_str(0x04, ""));
    struct bb hdr = BB_SEQ(bb_int(0x02, 9), bb_int(0x02, 65507), bb_tlv(0x04, "\x07", 1),
                           bb_int(0x02, 3));
    struct bb data = encrypted ? bb_str(0x04, "ciphertext")
                               : BB_SEQ(bb_str(0x04, "engine"), bb_str(0x04, ""),
                                        BB_CONS(0xa0, bb_int(0x02, 1), bb_int(0x02, 0),
                                                bb_int(0x02, 0), varbinds()));
    return BB_SEQ(bb_int(0x02, 3), hdr, bb_wrap(0x04, usm), data);
}

static void messages(void)
{
    struct ph h;
    ph_init(&h, "snmp", 17, 40000, 161);
    int64_t v;
    struct bb m = v2c(0xa0, "[R0_C@cti!]");
    ph_feed(&h, 0, m.p, m.n);
    CHECK(h.txs == 1 && ph_buf_is(&h, "snmp.community", 0, 0, "[R0_C@cti!]"));
    CHECK(ph_field(&h, "snmp.version", 0, &v) && v == 2);
    CHECK(ph_field(&h, "snmp.pdu_type", 0, &v) && v == SNMP_GET);
    CHECK(!ph_buf(&h, "snmp.usm", 0, 0, &(uint32_t){0}));
    m = v2c(0xa2, "[R0_C@cti!]");
    ph_feed(&h, 1, m.p, m.n);
    CHECK(h.txs == 2 && ph_buf_is(&h, "snmp.community", 1, 0, "[R0_C@cti!]"));
    CHECK(ph_field(&h, "snmp.pdu_type", 0, &v) && v == SNMP_RESPONSE);
    m = trap_v1();
    ph_feed(&h, 0, m.p, m.n);
    CHECK(ph_field(&h, "snmp.version", 0, &v) && v == 1);
    CHECK(ph_field(&h, "snmp.pdu_type", 0, &v) && v == SNMP_TRAP_V1);
    const struct snmp_state *st = h.pf.state;
    CHECK(st->cur.trap_type == 3 && st->cur.trap_addr.set && st->cur.nvars == 1);
    m = v3(false, "admin");
    ph_feed(&h, 0, m.p, m.n);
    CHECK(ph_buf_is(&h, "snmp.usm", 0, 0, "admin"));
    CHECK(ph_field(&h, "snmp.version", 0, &v) && v == 3);
    CHECK(ph_field(&h, "snmp.pdu_type", 0, &v) && v == SNMP_GET);
    m = v3(true, "admin");
    ph_feed(&h, 1, m.p, m.n);
    CHECK(ph_buf_is(&h, "snmp.usm", 1, 0, "admin") && st->cur.encrypted);
    CHECK(!ph_field(&h, "snmp.pdu_type", 0, &v)); /* an encrypted PDU has no type */
    CHECK(h.txs == 5 && ph_count(&h, "snmp_tx") == 5);
    /* what does not decode: counted, the flow goes on */
    ph_feed(&h, 0, "\x30\x03\x02\x01\x07", 5);
    m = BB_SEQ(bb_int(0x02, 1), bb_str(0x04, "public"), bb_str(0x04, "no pdu"));
    ph_feed(&h, 0, m.p, m.n);
    CHECK(ph_count(&h, "snmp_malformed") == 2 && h.txs == 5);
    ph_free(&h);
}

static void oids(void)
{
    char s[64];
    CHECK(snmp_oid_str(OID_SYSDESCR, sizeof OID_SYSDESCR, s, sizeof s) == 17);
    CHECK(!strcmp(s, "1.3.6.1.2.1.1.1.0"));
    static const uint8_t big[] = {0x2b, 0x86, 0xf7, 0x0d}; /* 1.3.113549 */
    CHECK(snmp_oid_str(big, sizeof big, s, sizeof s) && !strcmp(s, "1.3.113549"));
    static const uint8_t cut[] = {0x2b, 0x86};
    CHECK(snmp_oid_str(cut, sizeof cut, s, sizeof s) == 0);
    CHECK(snmp_oid_str(OID_SYSDESCR, sizeof OID_SYSDESCR, s, 8) == 0); /* no room */
    CHECK(!strcmp(snmp_pdu_name(SNMP_REPORT), "report") && snmp_pdu_name(9) == NULL);
}

static void probe(void)
{
    struct mon_flow f = {.proto = 17, .cport = 40000, .sport = 161};
    struct bb m = v2c(0xa0, "public"), m3 = v3(true, "u");
    CHECK(snmp_probe(m.p, m.n, &f) == DET_YES && snmp_probe(m3.p, m3.n, &f) == DET_YES);
    f.sport = 162;
    CHECK(snmp_probe(m.p, m.n, &f) == DET_YES);
    f.sport = 53;
    CHECK(snmp_probe(m.p, m.n, &f) == DET_NO); /* not its ports */
    f.sport = 161;
    struct bb ldap = BB_SEQ(bb_int(0x02, 1), bb_tlv(0x42, "", 0));
    CHECK(snmp_probe(ldap.p, ldap.n, &f) == DET_NO);
}

int main(void)
{
    messages();
    oids();
    probe();
    return unit_report("test_proto_snmp");
}
