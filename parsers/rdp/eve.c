/* eve.c — RDP's EVE object, as Suricata writes it: rdp{tx_id, event_type (initial_request,
 * initial_response, connect_request, connect_response, tls_handshake), and by message:
 * cookie; client{version, desktop_width, desktop_height, color_depth, keyboard_layout,
 * build, client_name, keyboard_type, function_keys, product_id, capabilities, id} and
 * channels}. Suricata's names for versions, keyboard types, layouts and capabilities; a
 * layout it would name that is not in the short table here, and the build, are decimal. */
#include <stdio.h>

#include "osprey_json_writer.h"
#include "rdp_int.h"

static const char *const EVENT_TYPES[] = {
    [RDP_EV_INITIAL_REQUEST] = "initial_request", [RDP_EV_INITIAL_RESPONSE] = "initial_response",
    [RDP_EV_CONNECT_REQUEST] = "connect_request", [RDP_EV_CONNECT_RESPONSE] = "connect_response",
    [RDP_EV_TLS_HANDSHAKE] = "tls_handshake"};

static void version(struct osprey_jw *w, uint32_t v)
{
    char b[16];
    if (v == 0x80001)
        snprintf(b, sizeof b, "v4");
    else if (v == 0x80004)
        snprintf(b, sizeof b, "v5");
    else if (v >= 0x80005 && v <= 0x80011)
        snprintf(b, sizeof b, "v10_%u", (unsigned)(v - 0x80005));
    else
        snprintf(b, sizeof b, "unknown");
    osprey_jw_str(w, "version", b);
}

static void layout(struct osprey_jw *w, uint32_t l)
{
    static const struct { uint32_t id; const char *name; } L[] = {
        {0x409, "en-US"}, {0x809, "en-GB"}, {0x407, "de-DE"}, {0x40c, "fr-FR"},
        {0x410, "it-IT"}, {0x40a, "es-ES"}, {0x411, "ja-JP"}, {0x412, "ko-KR"},
        {0x413, "nl-NL"}, {0x416, "pt-BR"}, {0x419, "ru-RU"}, {0x804, "zh-CN"}};
    for (size_t i = 0; i < sizeof L / sizeof L[0]; i++)
        if (L[i].id == l) {
            osprey_jw_str(w, "keyboard_layout", L[i].name);
            return;
        }
    char b[16];
    snprintf(b, sizeof b, "%u", (unsigned)l);
    osprey_jw_str(w, "keyboard_layout", b);
}

static void capabilities(struct osprey_jw *w, uint16_t caps)
{
    static const char *const C[] = {
        "support_errinfo_pdu", "want_32bpp_session", "support_statusinfo_pdu",
        "strong_asymmetric_keys", NULL, "valid_connection_type", "support_monitor_layout_pdu",
        "support_netchar_autodetect", "support_dynvc_gfx_protocol",
        "support_dynamic_time_zone", "support_heartbeat_pdu"};
    bool any = false;
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        any |= C[i] && (caps & (1u << i));
    if (!any)
        return;
    osprey_jw_array(w, "capabilities");
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        if (C[i] && (caps & (1u << i)))
            osprey_jw_str(w, NULL, C[i]);
    osprey_jw_array_end(w);
}

static void client(struct osprey_jw *w, const struct rdp_client *c)
{
    static const char *const KT[] = {NULL, "ibm_pc_xt", "olivetti", "ibm_pc_at", "enhanced",
                                     "nokia1050", "nokia9140", "japanese"};
    char b[16];
    osprey_jw_open(w, "client");
    version(w, c->version);
    osprey_jw_int(w, "desktop_width", c->width);
    osprey_jw_int(w, "desktop_height", c->height);
    /* colorDepth's RNS_UD_COLOR_4BPP / 8BPP codes, or highColorDepth's bits */
    osprey_jw_int(w, "color_depth", c->color_depth == 0xca00   ? 4
                                    : c->color_depth == 0xca01 ? 8
                                                               : c->color_depth);
    layout(w, c->keyboard_layout);
    snprintf(b, sizeof b, "%u", (unsigned)c->build);
    osprey_jw_str(w, "build", b);
    osprey_jw_str(w, "client_name", c->name);
    if (c->keyboard_type >= 1 && c->keyboard_type <= 7)
        osprey_jw_str(w, "keyboard_type", KT[c->keyboard_type]);
    osprey_jw_int(w, "function_keys", c->function_keys);
    if (c->has_product_id)
        osprey_jw_int(w, "product_id", c->product_id);
    if (c->has_caps)
        capabilities(w, c->early_caps);
    if (c->id[0])
        osprey_jw_str(w, "id", c->id);
    osprey_jw_close(w);
}

bool rdp_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct rdp_state *st = pf->state;
    if (!st || !st->ntx)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "rdp");
    osprey_jw_int(w, "tx_id", st->ntx - 1);
    osprey_jw_str(w, "event_type", EVENT_TYPES[st->cur]);
    if (st->cur == RDP_EV_INITIAL_REQUEST && st->cookie.len)
        osprey_jw_strn(w, "cookie", st->cookie.p, st->cookie.len);
    if (st->cur == RDP_EV_CONNECT_REQUEST) {
        client(w, &st->client);
        if (st->nchannels) {
            osprey_jw_array(w, "channels");
            for (uint32_t i = 0; i < st->nchannels; i++)
                osprey_jw_str(w, NULL, st->channels[i]);
            osprey_jw_array_end(w);
        }
    }
    osprey_jw_close(w);
    return true;
}
