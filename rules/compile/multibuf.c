/* multibuf.c — multi-buffers: rule buffers whose value is a list of elements, as Suricata's
 * http.request_header (one element per header, "Name: value"). Each element is inspected on
 * its own: a content run or bsize holds when it holds within one element (a content never
 * spans two headers), and the fast pattern is searched in each element (filters.c).
 *
 * One mechanism for every list buffer: det_app_buffer_at (app.c) serves element i of any
 * multi-buffer the parsers register (osprey_buffer_is_multi): tls.certs, tls.alpn,
 * dns.*.rrname, http.request_header … — the parsers build each element. What is left here is
 * which options of a rule look at the same instance of one. */
#include "detect_int.h"
#include "registry.h"

bool det_multi_same_instance(const struct osprey_rule *r, uint32_t from, uint32_t to)
{
    for (uint32_t k = from + 1; k < to; k++)
        if (opt_def_by_id(r->opts[k].kw)->kind == OPT_STICKY)
            return false;
    return true;
}
