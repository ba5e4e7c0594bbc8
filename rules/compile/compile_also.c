/* compile_also.c — the chains a rule gets again for protocols other than its own: a protocol
 * that runs another's rules (HTTP/2: `alert http` and rules on http.* buffers; DoH's dns.query),
 * a rule on files naming no protocol (every protocol with files reads them, as Suricata's file
 * keywords do), and the other services a Snort 3 rule's `service:` list names. Each is one more
 * compile_rule (compile.c) with the protocol to run as; compile_room says how many chains the
 * rules of a ruleset may take in all. */
#include <string.h>

#include "buffers.h"
#include "compiler.h"
#include "osprey_parsers.h"
#include "plan.h"
#include "registry.h"
#include "ruleset.h"

/* Does protocol p register file rows of its own (the file layer's file.name)? */
static bool own_files(uint16_t p)
{
    int b = osprey_buffer_find_in("file.name", 0, p);
    return b >= 0 && osprey_buffer_proto((uint16_t)b) == p;
}

/* Is base (of protocol bp) an event its files are read under (file.name's or file.data's,
 * either way)? */
static bool files_base(uint16_t base, uint16_t bp)
{
    static const char *const NAMES[] = {"file.name", "file.data"};
    for (int k = 0; k < 2; k++)
        for (int dir = 0; dir < 2; dir++) {
            int b = osprey_buffer_find_in(NAMES[k], dir, bp);
            if (b >= 0 && osprey_buffer_proto((uint16_t)b) == bp &&
                det_app_base(osprey_buffer_event((uint16_t)b)) == base)
                return true;
        }
    return false;
}

/* A rule that may read files: one option on the file rows or file.data (its keywords name
 * the file.name row: filesize, filemd5 …). Counts room for its extra chains. */
static bool files_rule(const struct osprey_rule *r)
{
    if (r->status != OSPREY_RULE_ACCEPTED)
        return false;
    for (uint32_t i = 0; i < r->nopts; i++) {
        unsigned b = r->opts[i].buffer;
        const struct opt_def *def = opt_def_by_id(r->opts[i].kw);
        if (def && det_app_match_buffer(def) != BUF_COUNT)
            b = det_app_match_buffer(def);
        if (b == BUF_FILE_NAME || b == BUF_FILE_MAGIC || b == BUF_FILE_DATA)
            return true;
    }
    return false;
}

size_t compile_room(const struct osprey_ruleset *rs)
{
    size_t n = osprey_ruleset_count(rs);
    /* a rule may have two chains (plan.h: enum plan_variant), for its protocol and again for
     * each one that also runs its rules (osprey_app_proto_rules_of: HTTP/2) */
    size_t per = 2, services = 0, nfiles = 0;
    for (uint16_t p = 2; p < osprey_app_proto_count(); p++) {
        per += osprey_app_proto_rules_of(p) || osprey_app_proto_buffer_rules_of(p) ? 2 : 0;
        nfiles += osprey_buffer_find_in("file.name", 0, p) >= 0;
    }
    /* and again for each other service a Snort 3 rule lists (compile_services) */
    for (size_t i = 0; i < n; i++) {
        const struct opt_words *sw = plan_service_words(osprey_ruleset_rule(rs, i));
        if (sw && sw->n > services)
            services = sw->n;
    }
    per += 2 * services;
    /* and for each protocol with files, a rule on files that names no protocol
     * (files_rule): room for two chains each */
    size_t nfile_rules = 0;
    for (size_t i = 0; i < n; i++)
        nfile_rules += !!files_rule(osprey_ruleset_rule(rs, i));
    return n ? per * n + 2 * nfiles * nfile_rules : 1;
}

/* A Snort 3 rule naming several services, on buffers several protocols register (file_data
 * on `service:ftp-data,http,imap,pop3`): its first compile read them in the first protocol
 * registering them (base: HTTP's event, or DB_PKT when that protocol was not listed); each
 * other listed service whose parser registers them runs it too, compiled again on its rows
 * and its flows (as a protocol that runs another's rules, osprey_app_proto_rules_of). */
static int compile_services(struct compiler *c, const struct osprey_rule *r, uint16_t base)
{
    const struct opt_words *sw = plan_service_words(r);
    uint16_t bp = det_base_is_app(base) ? det_base_proto(base) : 0;
    struct osprey_app_proto_set done = {0};
    for (uint32_t k = 0; sw && k < sw->n; k++) {
        uint8_t l4;
        uint16_t p = det_app_proto_of(sw->words[k], &l4);
        if (!p || p == bp || osprey_app_proto_set_has(&done, p) || !plan_registers_buffers(r, p))
            continue;
        osprey_app_proto_set_add(&done, p);
        enum plan_variant next;
        uint16_t b2;
        int rc = compile_rule(c, r, PV_MAIN, p, &next, &b2);
        if (rc == 0 && next != PV_MAIN)
            rc = compile_rule(c, r, next, p, &next, &b2);
        if (rc < 0)
            return -1;
    }
    return 0;
}

int compile_also(struct compiler *c, const struct osprey_rule *r, uint16_t base)
{
    if (!c->d->parsers)
        return 0;
    enum plan_variant next;
    uint16_t b2;
    int rc = 0;
    /* a protocol that also runs the rules of another (HTTP/2: HTTP's): `alert http`, and a
     * rule naming no application protocol whose buffers are that one's; and one that runs
     * another's rules on buffers it registers too (HTTP/2: DNS's, DoH) */
    /* what the loop asks of the rule, once (a lookup by name each was a tenth of startup) */
    uint8_t l4;
    uint16_t hdr = det_app_proto_of(r->proto, &l4);
    uint16_t bp = det_base_is_app(base) ? det_base_proto(base) : 0;
    int on_files = -1; /* files_rule(r) && files_base(base, bp), worked out when first asked */
    for (uint16_t p = 2; rc == 0 && p < osprey_app_proto_count(); p++) {
        uint16_t of = osprey_app_proto_rules_of(p), bof = osprey_app_proto_buffer_rules_of(p);
        bool named = of && hdr && !strcmp(r->proto, osprey_app_proto_name(of)); /* not http1 */
        bool via = named || (of && !hdr && bp == of) || (bof && bp == bof);
        /* a rule on files naming no protocol (`alert tcp … filesize`) reads the files of
         * every protocol that has them, as Suricata's file keywords do: compiled again for
         * each (silently not where its buffers are not that protocol's); a Snort 3 rule's
         * service: list says where it runs instead (compile_services) */
        if (!via && !hdr && bp && p != bp && on_files < 0)
            on_files = !plan_service_words(r) && files_rule(r) && files_base(base, bp);
        bool files = !via && !hdr && bp && p != bp && on_files > 0 && own_files(p);
        if (!via && !files)
            continue;
        rc = compile_rule(c, r, PV_MAIN, p, &next, &b2);
        if (rc == 0 && next != PV_MAIN)
            rc = compile_rule(c, r, next, p, &next, &b2);
    }
    return rc == 0 ? compile_services(c, r, base) : rc;
}
