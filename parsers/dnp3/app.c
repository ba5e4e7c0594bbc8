/* app.c — a DNP3 application fragment (IEEE 1815 §4.2.2): its control and function code, a
 * response's internal indications, and the walk over its object headers (group, variation,
 * qualifier; the range as start/stop or a count; each object's prefix and data stepped over
 * by its size, objects.c). Requests that read, freeze or assign carry headers only; writes,
 * selects and operates, and every response, carry the objects too. Bounded by the fragment;
 * headers past DNP3_OBJ_MAX and points past DNP3_POINTS_MAX stop the walk and are said. */
#include <string.h>

#include "dnp3_int.h"

static const uint8_t PREFIX_BYTES[8] = {0, 1, 2, 4, 1, 2, 4, 0};

/* do the objects of function fc carry their data? */
static bool with_data(uint8_t fc)
{
    return fc >= 0x81 || (fc >= 2 && fc <= 6);
}

static uint32_t rd_n(const uint8_t *p, unsigned n)
{
    return n == 1 ? p[0] : n == 2 ? rd_le16(p) : rd_le32(p);
}

bool dnp3_decode_app(struct dnp3_msg *m, int dir, const uint8_t *d, size_t n, bool *unknown,
                     bool *too_many_objects, bool *too_many_points)
{
    *unknown = *too_many_objects = *too_many_points = false;
    m->nobj = 0;
    m->complete = false;
    m->has_iin = false;
    m->dir = (uint8_t)dir;
    if (n < 2)
        return false;
    m->app_ctl = d[0], m->func = d[1];
    size_t at = 2;
    if (m->func >= 0x81 && m->func <= 0x83) {
        if (n < 4)
            return false;
        m->has_iin = true;
        m->iin = (uint16_t)(d[2] << 8 | d[3]);
        at = 4;
    }
    bool data = with_data(m->func);
    uint64_t points = 0;
    while (at < n) {
        if (n - at < 3)
            return true; /* a header cut short: incomplete */
        struct dnp3_obj o = {.group = d[at], .variation = d[at + 1], .qualifier = d[at + 2]};
        at += 3;
        unsigned prefix = o.qualifier >> 4 & 7, range = o.qualifier & 0xf;
        if (prefix == 7)
            return true;
        unsigned rb = 0;
        switch (range) {
        case 0: case 3: rb = 1; break;
        case 1: case 4: rb = 2; break;
        case 2: case 5: rb = 4; break;
        case 6: break;
        case 7: case 0xb: rb = 1; break;
        case 8: rb = 2; break;
        case 9: rb = 4; break;
        default: return true;
        }
        if (range <= 5) {
            if (n - at < 2u * rb)
                return true;
            o.start = rd_n(d + at, rb), o.stop = rd_n(d + at + rb, rb);
            at += 2u * rb;
            if (o.stop < o.start)
                return true;
            o.has_range = true;
            o.count = o.stop - o.start + 1;
        } else if (range != 6) {
            if (n - at < rb)
                return true;
            o.count = rd_n(d + at, rb);
            at += rb;
            o.has_count = true;
        }
        if (m->nobj == DNP3_OBJ_MAX) {
            *too_many_objects = true;
            return true;
        }
        m->obj[m->nobj++] = o;
        points += o.count;
        if (points > DNP3_POINTS_MAX) {
            *too_many_points = true;
            return true;
        }
        int bits = dnp3_object_bits(o.group, o.variation);
        if (!data || bits == 0 || range == 6)
            continue;
        if (bits < 0 && range != 0xb && prefix < 4) {
            *unknown = true;
            return true;
        }
        uint64_t need;
        if (range == 0xb || prefix >= 4) { /* each object its size first */
            for (uint32_t i = 0; i < o.count; i++) {
                unsigned pb = PREFIX_BYTES[prefix] ? PREFIX_BYTES[prefix] : 1;
                if (n - at < pb)
                    return true;
                uint32_t sz = rd_n(d + at, pb);
                at += pb;
                if (n - at < sz)
                    return true;
                at += sz;
            }
            continue;
        }
        if (prefix == 0 && bits % 8)
            need = ((uint64_t)o.count * (unsigned)bits + 7) / 8; /* packed */
        else
            need = (uint64_t)o.count * (PREFIX_BYTES[prefix] + ((unsigned)bits + 7) / 8);
        if (need > n - at)
            return true;
        at += (size_t)need;
    }
    m->complete = true;
    return true;
}
