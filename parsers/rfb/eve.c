/* eve.c — RFB's EVE object, as Suricata writes it: rfb{server_protocol_version{major,minor},
 * client_protocol_version{…}, authentication{security_type, vnc{challenge, response} (hex),
 * security_result}, server_security_failure_reason, screen_shared, framebuffer{width,
 * height, name, pixel_format{…}}}, each part once it came. */
#include "osprey_json_writer.h"
#include "rfb_int.h"

static void version(struct osprey_jw *w, const char *key, const struct rfb_version *v)
{
    if (!v->set)
        return;
    osprey_jw_open(w, key);
    osprey_jw_str(w, "major", v->major);
    osprey_jw_str(w, "minor", v->minor);
    osprey_jw_close(w);
}

static void hex16(struct osprey_jw *w, const char *key, const uint8_t b[16])
{
    char h[33];
    phex(h, b, 16);
    osprey_jw_str(w, key, h);
}

static void pixel_format(struct osprey_jw *w, const uint8_t *p)
{
    osprey_jw_open(w, "pixel_format");
    osprey_jw_int(w, "bits_per_pixel", p[0]);
    osprey_jw_int(w, "depth", p[1]);
    osprey_jw_bool(w, "big_endian", p[2] != 0);
    osprey_jw_bool(w, "true_color", p[3] != 0);
    osprey_jw_int(w, "red_max", rd_be16(p + 4));
    osprey_jw_int(w, "green_max", rd_be16(p + 6));
    osprey_jw_int(w, "blue_max", rd_be16(p + 8));
    osprey_jw_int(w, "red_shift", p[10]);
    osprey_jw_int(w, "green_shift", p[11]);
    osprey_jw_int(w, "blue_shift", p[12]);
    osprey_jw_close(w);
}

bool rfb_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct rfb_state *st = pf->state;
    if (!st || (!st->ver[0].set && !st->ver[1].set))
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "rfb");
    version(w, "server_protocol_version", &st->ver[1]);
    version(w, "client_protocol_version", &st->ver[0]);
    if (st->sectype_set) {
        osprey_jw_open(w, "authentication");
        osprey_jw_int(w, "security_type", st->sectype);
        if (st->challenge_set || st->response_set) {
            osprey_jw_open(w, "vnc");
            if (st->challenge_set)
                hex16(w, "challenge", st->challenge);
            if (st->response_set)
                hex16(w, "response", st->response);
            osprey_jw_close(w);
        }
        if (st->result_set)
            osprey_jw_str(w, "security_result", st->result == 0   ? "OK"
                                                : st->result == 1 ? "FAIL"
                                                : st->result == 2 ? "TOOMANY"
                                                                  : "UNKNOWN");
        osprey_jw_close(w);
    }
    if (st->reason.len)
        osprey_jw_strn(w, "server_security_failure_reason", st->reason.p, st->reason.len);
    if (st->shared_set)
        osprey_jw_bool(w, "screen_shared", st->shared);
    if (st->init_set) {
        osprey_jw_open(w, "framebuffer");
        osprey_jw_int(w, "width", st->width);
        osprey_jw_int(w, "height", st->height);
        osprey_jw_strn(w, "name", st->name.p ? st->name.p : (const uint8_t *)"", st->name.len);
        pixel_format(w, st->pixel);
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
    return true;
}
