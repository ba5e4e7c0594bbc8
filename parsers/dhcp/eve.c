/* eve.c — DHCP's EVE object, as Suricata writes it with `extended: yes` (always: Osprey has
 * no per-type EVE options yet): dhcp{type (request / reply), id (xid), client_mac,
 * assigned_ip (yiaddr), client_ip, relay_ip and next_server_ip (a reply's giaddr and
 * siaddr), then from the options in their order: client_id, lease_time, rebinding_time,
 * renewal_time, subnet_mask, hostname, dhcp_type, requested_ip, params (the names Suricata
 * knows), dns_servers, routers, vendor_class_identifier}. */
#include <stdio.h>

#include "dhcp_int.h"
#include "osprey_json_writer.h"

static void ip(struct osprey_jw *w, const char *key, const uint8_t *a)
{
    char s[16];
    snprintf(s, sizeof s, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
    osprey_jw_str(w, key, s);
}

/* bytes as lowercase hex pairs joined by ':' (a MAC address, a client id) */
static void hex_colons(struct osprey_jw *w, const char *key, const uint8_t *d, uint32_t n)
{
    char s[3 * 255 + 1];
    size_t k = 0;
    for (uint32_t i = 0; i < n && i < 255; i++)
        k += (size_t)snprintf(s + k, sizeof s - k, i ? ":%02x" : "%02x", d[i]);
    s[k] = 0;
    osprey_jw_str(w, key, s);
}

static void ip_list(struct osprey_jw *w, const char *key, const struct dhcp_msg *m,
                    const struct dhcp_opt *o)
{
    if (o->len < 4)
        return;
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i + 4 <= o->len; i += 4)
        ip(w, NULL, m->body + o->off + i);
    osprey_jw_array_end(w);
}

static const char *type_name(uint8_t t)
{
    static const char *const N[] = {NULL, "discover", "offer", "request", "decline", "ack",
                                    "nak", "release", "inform"};
    return t >= 1 && t <= 8 ? N[t] : "unknown";
}

static const char *param_name(uint8_t p)
{
    switch (p) {
    case 1: return "subnet_mask";
    case 3: return "router";
    case 6: return "dns_server";
    case 15: return "domain";
    case 35: return "arp_timeout";
    case 42: return "ntp_server";
    case 66: return "tftp_server_name";
    case 150: return "tftp_server_ip";
    default: return NULL;
    }
}

static void params(struct osprey_jw *w, const struct dhcp_msg *m, const struct dhcp_opt *o)
{
    bool open = false;
    for (uint32_t i = 0; i < o->len; i++) {
        const char *n = param_name(m->body[o->off + i]);
        if (!n)
            continue;
        if (!open)
            osprey_jw_array(w, "params");
        open = true;
        osprey_jw_str(w, NULL, n);
    }
    if (open)
        osprey_jw_array_end(w);
}

static void option(struct osprey_jw *w, const struct dhcp_msg *m, const struct dhcp_opt *o)
{
    const uint8_t *d = m->body + o->off;
    switch (o->code) {
    case DHCP_OPT_CLIENT_ID: /* its hardware type first, then the identifier */
        if (o->len >= 2)
            hex_colons(w, "client_id", d + 1, o->len - 1);
        break;
    case DHCP_OPT_LEASE_TIME:
    case DHCP_OPT_REBINDING_TIME:
    case DHCP_OPT_RENEWAL_TIME:
        if (o->len == 4)
            osprey_jw_int(w,
                          o->code == DHCP_OPT_LEASE_TIME      ? "lease_time"
                          : o->code == DHCP_OPT_REBINDING_TIME ? "rebinding_time"
                                                               : "renewal_time",
                          rd_be32(d));
        break;
    case DHCP_OPT_SUBNET_MASK:
        if (o->len == 4)
            ip(w, "subnet_mask", d);
        break;
    case DHCP_OPT_HOSTNAME:
        if (o->len)
            osprey_jw_strn(w, "hostname", d, o->len);
        break;
    case DHCP_OPT_TYPE:
        if (o->len)
            osprey_jw_str(w, "dhcp_type", type_name(d[0]));
        break;
    case DHCP_OPT_REQUESTED_IP:
        if (o->len == 4)
            ip(w, "requested_ip", d);
        break;
    case DHCP_OPT_PARAMS:
        params(w, m, o);
        break;
    case DHCP_OPT_DNS_SERVERS:
        ip_list(w, "dns_servers", m, o);
        break;
    case DHCP_OPT_ROUTERS:
        ip_list(w, "routers", m, o);
        break;
    case DHCP_OPT_VENDOR_CLASS:
        if (o->len)
            osprey_jw_strn(w, "vendor_class_identifier", d, o->len);
        break;
    default:
        break;
    }
}

bool dhcp_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct dhcp_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    const struct dhcp_msg *m = &st->cur;
    const uint8_t *b = m->body;
    osprey_jw_open(w, "dhcp");
    osprey_jw_str(w, "type", m->op == DHCP_BOOTREQUEST ? "request"
                             : m->op == DHCP_BOOTREPLY ? "reply"
                                                       : "<unknown>");
    osprey_jw_int(w, "id", m->xid);
    hex_colons(w, "client_mac", b + 28, m->hlen <= 16 ? m->hlen : 16);
    ip(w, "assigned_ip", b + 16);
    ip(w, "client_ip", b + 12);
    if (m->op == DHCP_BOOTREPLY) {
        ip(w, "relay_ip", b + 24);
        ip(w, "next_server_ip", b + 20);
    }
    /* a key once, from its first option (the record is a JSON object) */
    for (uint32_t i = 0; i < m->nopts; i++) {
        bool seen = false;
        for (uint32_t k = 0; k < i && !seen; k++)
            seen = m->opts[k].code == m->opts[i].code;
        if (!seen)
            option(w, m, &m->opts[i]);
    }
    osprey_jw_close(w);
    return true;
}
