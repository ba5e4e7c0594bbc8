/* eve_packet.c — EVE "packet" records: a packet a tag rule's alert tagged, logged whole
 * (base64 of the captured frame, packet_info.linktype), as Suricata's tagged-packets. */
#include <stdlib.h>

#include "eve_json.h"
#include "osprey_outputs.h"

/* Standard base64 with padding; malloc'd, NUL-terminated. */
static char *base64(const uint8_t *p, uint32_t n)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((size_t)n / 3 + 1) + 1), *o = out;
    if (!out)
        return NULL;
    for (uint32_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *o++ = A[(v >> 18) & 63];
        *o++ = A[(v >> 12) & 63];
        *o++ = i + 1 < n ? A[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? A[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

char *osprey_eve_packet_line(const struct osprey_eve_packet *p)
{
    char *b64 = base64(p->frame, p->caplen);
    if (!b64)
        return NULL;
    struct osprey_jw w;
    osprey_eve_jw_head(&w, p->ts_us, p->flow_id, p->pcap_cnt, "packet");
    if (p->src_ip && p->dest_ip)
        osprey_eve_jw_tuple(&w, p->src_ip, p->src_port, p->dest_ip, p->dest_port, p->proto);
    osprey_jw_str(&w, "packet", b64);
    osprey_jw_open(&w, "packet_info");
    osprey_jw_int(&w, "linktype", p->linktype);
    osprey_jw_close(&w);
    free(b64);
    return osprey_jw_finish(&w);
}
