/* test_proto_services.c — the recognition-only services: each probe says YES on its
 * signature or port and NO elsewhere, a decided flow is not read (TCP directions given up,
 * datagrams passed over), the descriptors are registered under Snort 3's service names, and
 * the service names Osprey's parsers answer to (kerberos, netbios-ssn). */
#include "proto_harness.h"
#include "services_int.h"
#include "unit.h"

#define P(s) (const uint8_t *)(s), sizeof(s) - 1

static void probes(void)
{
    struct mon_flow f = {.proto = 6, .cport = 40000, .sport = 6667};
    CHECK(irc_probe_client(P("NICK bot\r\nUSER a b c d\r\n"), &f) == DET_YES);
    CHECK(irc_probe_client(P("NIC"), &f) == DET_NEED_MORE);
    CHECK(irc_probe_client(P("GET / HTTP/1.1\r\n"), &f) == DET_NO);
    CHECK(irc_probe_server(P(":irc.example.net NOTICE * :*** Looking up your hostname\r\n"),
                           &f) == DET_YES);
    CHECK(irc_probe_server(P(":irc.example.net NOT"), &f) == DET_NEED_MORE);
    CHECK(irc_probe_server(P(":irc.example.net PRIVMSG x\r\n"), &f) == DET_NO);
    CHECK(irc_probe_server(P("220 ftp\r\n"), &f) == DET_NO);

    f.sport = 3306;
    static const uint8_t greet[] = {0x0a, 0, 0, 0, 0x0a, '8', '.', '0', 0, 1, 2, 3, 4, 5};
    CHECK(mysql_probe_server(greet, sizeof greet, &f) == DET_YES);
    f.sport = 13306; /* the greeting alone decides, any port */
    CHECK(mysql_probe_server(greet, sizeof greet, &f) == DET_YES);
    CHECK(mysql_probe_server(greet, 3, &f) == DET_NEED_MORE);
    CHECK(mysql_probe_server(P("SSH-2.0-x\r\n"), &f) == DET_NO);
    CHECK(mysql_probe_server(P("NO\r\n"), &f) == DET_NO); /* short, and no packet header */
    CHECK(mysql_probe_server(P("\x0a\x00"), &f) == DET_NEED_MORE);
    static const uint8_t err[] = {0x10, 0, 0, 0, 0xff, 0x6a, 0x04};
    CHECK(mysql_probe_server(err, sizeof err, &f) == DET_NO); /* an error packet: its port only */
    f.sport = 3306;
    CHECK(mysql_probe_server(err, sizeof err, &f) == DET_YES);

    f.sport = 119;
    CHECK(nntp_probe_server(P("200 news.example.com ready\r\n"), &f) == DET_YES);
    CHECK(nntp_probe_server(P("220 smtp\r\n"), &f) == DET_NO);
    f.sport = 25;
    CHECK(nntp_probe_server(P("200 news.example.com ready\r\n"), &f) == DET_NO);

    f.sport = 42;
    CHECK(wins_probe(P("x"), &f) == DET_YES);
    f.sport = 43;
    CHECK(wins_probe(P("x"), &f) == DET_NO);

    struct mon_flow u = {.proto = 17, .cport = 137, .sport = 137};
    static const uint8_t nbns[12] = {0x12, 0x34, 0x01, 0x10, 0, 1};
    CHECK(netbios_ns_probe(nbns, sizeof nbns, &u) == DET_YES);
    CHECK(netbios_ns_probe(nbns, 11, &u) == DET_NO);
    u.cport = u.sport = 138;
    static const uint8_t dgm[14] = {0x11, 0x02};
    CHECK(netbios_dgm_probe(dgm, sizeof dgm, &u) == DET_YES);
    static const uint8_t other[12] = {0x20, 0x34};
    CHECK(netbios_dgm_probe(other, sizeof other, &u) == DET_NO); /* no datagram type */
    u.cport = 40000, u.sport = 1900;
    CHECK(ssdp_probe(P("M-SEARCH * HTTP/1.1\r\nST: ssdp:all\r\n\r\n"), &u) == DET_YES);
    CHECK(ssdp_probe(P("NOTIFY * HTTP/1.1\r\n"), &u) == DET_YES);
    CHECK(ssdp_probe(P("GET / HTTP/1.1\r\n"), &u) == DET_NO);
    u.sport = 1901;
    CHECK(ssdp_probe(P("M-SEARCH * HTTP/1.1\r\n"), &u) == DET_NO);
}

static void not_read(void)
{
    struct ph h;
    ph_init(&h, "irc", 6, 40000, 6667);
    ph_feed(&h, 0, P("NICK bot\r\n"));
    CHECK(h.pf.dead[0] && !h.pf.dead[1] && !h.pf.state && h.txs == 0);
    ph_free(&h);
    ph_init(&h, "ssdp", 17, 40000, 1900);
    ph_feed(&h, 0, P("M-SEARCH * HTTP/1.1\r\n"));
    CHECK(!h.pf.state && h.txs == 0);
    ph_free(&h);
}

static void names(void)
{
    static const char *const N[] = {"irc", "netbios-ns", "netbios-dgm", "wins", "ssdp",
                                    "mysql", "nntp"};
    for (size_t i = 0; i < sizeof N / sizeof N[0]; i++) {
        int id = osprey_app_proto_find(N[i]);
        CHECK(id > OSPREY_APP_PROTO_FAILED && !osprey_app_proto_has_eve((uint16_t)id));
    }
    CHECK(osprey_app_proto_find("kerberos") == osprey_app_proto_find("krb5"));
    CHECK(osprey_app_proto_find("netbios-ssn") == osprey_app_proto_find("smb"));
    /* NetBIOS name service datagrams look like DNS: its probe runs before DNS's (its rank) */
    CHECK(reg_proto((uint16_t)osprey_app_proto_find("netbios-ns"))->probe_rank <
          reg_proto((uint16_t)osprey_app_proto_find("dns"))->probe_rank);
}

int main(void)
{
    probes();
    not_read();
    names();
    return unit_report("test_proto_services");
}
