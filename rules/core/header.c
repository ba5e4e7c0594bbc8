/* header.c — actions and protocols of the three dialects. */
#include "header.h"

#include <string.h>

#include "osprey_parsers.h"
#include "text.h"

static const char *const ACTIONS[] = {
    [OSPREY_ACTION_ALERT] = "alert",         [OSPREY_ACTION_LOG] = "log",
    [OSPREY_ACTION_PASS] = "pass",           [OSPREY_ACTION_DROP] = "drop",
    [OSPREY_ACTION_REJECT] = "reject",       [OSPREY_ACTION_REJECTSRC] = "rejectsrc",
    [OSPREY_ACTION_REJECTDST] = "rejectdst", [OSPREY_ACTION_REJECTBOTH] = "rejectboth",
    [OSPREY_ACTION_SDROP] = "sdrop",         [OSPREY_ACTION_BLOCK] = "block",
    [OSPREY_ACTION_REACT] = "react",         [OSPREY_ACTION_REWRITE] = "rewrite",
    [OSPREY_ACTION_FILE_ID] = "file_id",     [OSPREY_ACTION_ACCEPT] = "accept",
};

int header_action(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof ACTIONS / sizeof ACTIONS[0]; i++)
        if (slice_eq(s, n, ACTIONS[i]))
            return (int)i;
    return -1;
}

/* Suricata 8's scopes: accept takes any of the four, drop packet or flow, the other actions
 * none (a firewall rule is accept or drop). */
int header_action_scope(enum osprey_rule_action a, const char *s, size_t n)
{
    static const char *const SCOPES[] = {[OSPREY_SCOPE_PACKET] = "packet",
                                         [OSPREY_SCOPE_FLOW] = "flow",
                                         [OSPREY_SCOPE_HOOK] = "hook", [OSPREY_SCOPE_TX] = "tx"};
    for (int i = OSPREY_SCOPE_PACKET; i <= OSPREY_SCOPE_TX; i++)
        if (slice_eq(s, n, SCOPES[i]))
            return a == OSPREY_ACTION_ACCEPT || (a == OSPREY_ACTION_DROP && i <= OSPREY_SCOPE_FLOW)
                       ? i
                       : -1;
    return -1;
}

const char *header_action_name(enum osprey_rule_action a)
{
    return (size_t)a < sizeof ACTIONS / sizeof ACTIONS[0] ? ACTIONS[a] : "?";
}

/* Packet protocols of Snort and Suricata, then application protocols: Suricata's app-layer
 * names and Snort 3's service names (a Snort 3 rule may name any service in the header).
 * Spellings that mean the same protocol map to one canonical word. */
static const struct {
    const char *name, *canon;
} PROTOS[] = {
    {"ip", NULL}, {"ipv4", NULL}, {"ip4", "ipv4"}, {"ipv6", NULL}, {"ip6", "ipv6"},
    {"tcp", NULL}, {"tcp-pkt", NULL}, {"tcp-stream", NULL}, {"udp", NULL}, {"icmp", NULL},
    {"icmpv4", NULL}, {"icmpv6", NULL}, {"sctp", NULL}, {"igmp", NULL}, {"pkthdr", NULL},
    /* application layer */
    {"http", NULL}, {"http1", NULL}, {"http2", NULL}, {"ftp", NULL}, {"ftp-data", NULL},
    {"smtp", NULL}, {"tls", NULL}, {"ssl", NULL}, {"ssh", NULL}, {"smb", NULL},
    {"dcerpc", NULL}, {"dns", NULL}, {"doh2", NULL}, {"dnp3", NULL}, {"modbus", NULL},
    {"enip", NULL}, {"cip", NULL}, {"nfs", NULL}, {"ntp", NULL}, {"tftp", NULL}, {"ike", NULL},
    {"tftp-data", NULL}, /* (Osprey's: a TFTP transfer, as ftp-data) */
    {"ikev2", "ike"}, {"krb5", NULL}, {"dhcp", NULL}, {"snmp", NULL}, {"sip", NULL},
    {"rfb", NULL}, {"mqtt", NULL}, {"pgsql", NULL}, {"telnet", NULL}, {"quic", NULL},
    {"rdp", NULL}, {"websocket", NULL}, {"ldap", NULL}, {"mdns", NULL}, {"pop3", NULL},
    {"imap", NULL}, {"irc", NULL}, {"bittorrent-dht", NULL}, {"template", NULL},
    /* Snort 3 services */
    {"file", NULL}, {"netbios-ssn", NULL}, {"netbios-dgm", NULL}, {"netbios-ns", NULL},
    {"sunrpc", NULL}, {"gtp", NULL}, {"s7commplus", NULL}, {"iec104", NULL}, {"mms", NULL},
    {"pop", "pop3"}, {"smtps", NULL}, {"imaps", NULL}, {"pop3s", NULL}, {"https", NULL},
    {"ftps", NULL}, {"x11", NULL}, {"finger", NULL}, {"rsh", NULL}, {"rlogin", NULL},
    {"vnc", NULL}, {"mysql", NULL}, {"oracle", NULL}, {"mssql", NULL}, {"postgresql", NULL},
};

bool header_proto_implemented(const char *canon)
{
    /* packet protocols the compiler (rules/compile) builds header filters for */
    static const char *const done[] = {"ip", "tcp", "udp", "icmp", "ipv4", "ipv6", "tcp-pkt",
                                       "tcp-stream", "icmpv4", "icmpv6", "pkthdr", "sctp"};
    for (size_t i = 0; i < sizeof done / sizeof done[0]; i++)
        if (!strcmp(canon, done[i]))
            return true;
    /* and the application protocols the parsers register (a name or alias: "ssl") */
    return osprey_app_proto_find(canon) > OSPREY_APP_PROTO_FAILED;
}

const char *header_proto(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof PROTOS / sizeof PROTOS[0]; i++)
        if (slice_ieq(s, n, PROTOS[i].name))
            return PROTOS[i].canon ? PROTOS[i].canon : PROTOS[i].name;
    return NULL;
}
