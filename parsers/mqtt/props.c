/* props.c — MQTT 5 properties (§2.2.2.2): an identifier, then a value whose form the
 * identifier fixes (byte, two or four byte integer, variable byte integer, string, binary
 * data, string pair). A property of an unknown identifier cannot be skipped: the list is
 * malformed, as it is when a value runs past the list. EVE writes them under Suricata's
 * names, one key per property. */
#include <string.h>

#include "mqtt_int.h"
#include "osprey_json_writer.h"

enum pkind { P_NONE, P_BYTE, P_U16, P_U32, P_VARINT, P_STR, P_BIN, P_PAIR };

static const struct { const char *name; uint8_t kind; } PROPS[43] = {
    [1] = {"payload_format_indicator", P_BYTE},
    [2] = {"message_expiry_interval", P_U32},
    [3] = {"content_type", P_STR},
    [8] = {"response_topic", P_STR},
    [9] = {"correlation_data", P_BIN},
    [11] = {"subscription_identifier", P_VARINT},
    [17] = {"session_expiry_interval", P_U32},
    [18] = {"assigned_client_identifier", P_STR},
    [19] = {"server_keep_alive", P_U16},
    [21] = {"authentication_method", P_STR},
    [22] = {"authentication_data", P_BIN},
    [23] = {"request_problem_information", P_BYTE},
    [24] = {"will_delay_interval", P_U32},
    [25] = {"request_response_information", P_BYTE},
    [26] = {"response_information", P_STR},
    [28] = {"server_reference", P_STR},
    [31] = {"reason_string", P_STR},
    [33] = {"receive_maximum", P_U16},
    [34] = {"topic_alias_maximum", P_U16},
    [35] = {"topic_alias", P_U16},
    [36] = {"maximum_qos", P_BYTE},
    [37] = {"retain_available", P_BYTE},
    [38] = {"user_property", P_PAIR},
    [39] = {"maximum_packet_size", P_U32},
    [40] = {"wildcard_subscription_available", P_BYTE},
    [41] = {"subscription_identifier_available", P_BYTE},
    [42] = {"shared_subscription_available", P_BYTE},
};

/* One property at p[*off..n): its id, its integer value or its string spans. */
struct prop {
    uint8_t id;
    uint32_t v;
    struct span a, b;
};

static bool lstr(const uint8_t *p, uint32_t n, uint32_t *off, struct span *s)
{
    if (n - *off < 2)
        return false;
    uint32_t l = rd_be16(p + *off);
    if (n - *off - 2 < l)
        return false;
    *s = (struct span){*off + 2, l, true};
    *off += 2 + l;
    return true;
}

static bool next(const uint8_t *p, uint32_t n, uint32_t *off, struct prop *pr)
{
    uint32_t id;
    if (!mqtt_varint(p, n, off, &id) || id >= PROTO_N(PROPS) || PROPS[id].kind == P_NONE)
        return false;
    pr->id = (uint8_t)id;
    uint32_t w = 0;
    switch (PROPS[id].kind) {
    case P_BYTE: w = 1; break;
    case P_U16: w = 2; break;
    case P_U32: w = 4; break;
    case P_VARINT: return mqtt_varint(p, n, off, &pr->v);
    case P_STR: case P_BIN: return lstr(p, n, off, &pr->a);
    case P_PAIR: return lstr(p, n, off, &pr->a) && lstr(p, n, off, &pr->b);
    default: return false;
    }
    if (n - *off < w)
        return false;
    pr->v = 0;
    for (uint32_t i = 0; i < w; i++)
        pr->v = pr->v << 8 | p[(*off)++];
    return true;
}

bool mqtt_props_valid(const uint8_t *p, uint32_t n)
{
    struct prop pr;
    for (uint32_t off = 0; off < n;)
        if (!next(p, n, &off, &pr))
            return false;
    return true;
}

void mqtt_props_eve(struct osprey_jw *w, const uint8_t *p, uint32_t n)
{
    struct prop pr;
    osprey_jw_open(w, "properties");
    for (uint32_t off = 0; off < n && next(p, n, &off, &pr);) {
        uint8_t k = PROPS[pr.id].kind;
        if (k == P_PAIR) { /* a user property: its own name and value */
            char name[256];
            uint32_t l = pr.a.len < sizeof name - 1 ? pr.a.len : sizeof name - 1;
            memcpy(name, p + pr.a.off, l);
            name[l] = 0;
            osprey_jw_strn(w, name, p + pr.b.off, pr.b.len);
        } else if (k == P_STR || k == P_BIN) {
            osprey_jw_strn(w, PROPS[pr.id].name, p + pr.a.off, pr.a.len);
        } else {
            osprey_jw_int(w, PROPS[pr.id].name, pr.v);
        }
    }
    osprey_jw_close(w);
}
