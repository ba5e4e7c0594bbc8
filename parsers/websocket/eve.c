/* eve.c — WebSocket's EVE object, as Suricata 8 writes it: websocket{fin, mask (the key, only
 * for a masked frame), opcode (its name, "unknown-N" for another), payload_base64,
 * payload_printable} of the frame in force (a message's last frame: the whole message,
 * inflated). Both payload forms are written (Suricata's `payload: [base64, printable]`). */
#include <stdio.h>
#include <stdlib.h>

#include "osprey_json_writer.h"
#include "websocket_int.h"

const char *ws_opcode_name(uint8_t op)
{
    static const char *const N[16] = {[0] = "continuation", [1] = "text", [2] = "binary",
                                      [8] = "close", [9] = "ping", [10] = "pong"};
    return N[op & 15];
}

static void base64(struct osprey_jw *w, const char *key, const uint8_t *d, uint32_t n)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t cap = (size_t)(n + 2) / 3 * 4;
    uint8_t *o = malloc(cap + 1);
    if (!o)
        return;
    size_t k = 0;
    for (uint32_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        o[k++] = (uint8_t)A[v >> 18 & 63];
        o[k++] = (uint8_t)A[v >> 12 & 63];
        o[k++] = i + 1 < n ? (uint8_t)A[v >> 6 & 63] : '=';
        o[k++] = i + 2 < n ? (uint8_t)A[v & 63] : '=';
    }
    osprey_jw_strn(w, key, o, k);
    free(o);
}

/* Suricata's printable form: bytes outside 0x20-0x7e (but CR, LF, TAB) become '.' */
static void printable(struct osprey_jw *w, const char *key, const uint8_t *d, uint32_t n)
{
    uint8_t *o = malloc(n + 1u);
    if (!o)
        return;
    for (uint32_t i = 0; i < n; i++)
        o[i] = (d[i] >= 0x20 && d[i] < 0x7f) || d[i] == '\r' || d[i] == '\n' || d[i] == '\t'
                   ? d[i]
                   : '.';
    osprey_jw_strn(w, key, o, n);
    free(o);
}

bool websocket_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct websocket_state *st = pf->state;
    const struct ws_pdu *p = st ? &st->side[st->cur].pdu : NULL;
    if (!p || !p->set)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "websocket");
    osprey_jw_bool(w, "fin", p->flags & WS_FIN);
    if (p->masked)
        osprey_jw_int(w, "mask", p->mask);
    const char *name = ws_opcode_name(p->opcode);
    char other[16];
    if (!name) {
        snprintf(other, sizeof other, "unknown-%u", p->opcode);
        name = other;
    }
    osprey_jw_str(w, "opcode", name);
    base64(w, "payload_base64", p->payload.p, p->payload.len);
    printable(w, "payload_printable", p->payload.p, p->payload.len);
    osprey_jw_close(w);
    return true;
}
