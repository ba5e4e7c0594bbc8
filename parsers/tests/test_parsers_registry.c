/* test_parsers_registry.c — what every descriptor in core/registry.c must hold, checked over
 * the whole table (a new protocol's rows are checked with no change here): each buffer is
 * current under an event of its own protocol, a (name, direction) means one buffer, names of
 * protocols, events, fields, anomalies and counters are unique, ids are dense. */
#include <stdio.h>
#include <string.h>

#include "parsers_int.h"
#include "unit.h"

static bool named(const struct proto_buffer *r, const char *n)
{
    if (!strcmp(r->name, n))
        return true;
    for (size_t a = 0; a < PROTO_N(r->alias) && r->alias[a]; a++)
        if (!strcmp(r->alias[a], n))
            return true;
    return false;
}

static void test_buffers(void)
{
    uint16_t nb = osprey_buffer_count(), p, q;
    CHECK(nb > 0);
    for (uint16_t b = 0; b < nb; b++) {
        const struct proto_buffer *r = reg_buffer(b, &p);
        CHECK(r && r->get && r->dir <= 1);
        uint16_t ev = osprey_buffer_event(b);
        /* the event it names is its protocol's, and exists */
        CHECK(osprey_event_proto(ev) == p && !strcmp(osprey_event_name(ev), r->event));
        if (r->late) /* read under the response */
            CHECK(r->dir == 1 && osprey_event_dir(ev) == 1);
        if (r->record)
            continue;
        /* each of its names means it in its direction, and no other row of its protocol
         * there (another protocol may register the name too: file.data) */
        const char *names[4] = {r->name, r->alias[0], r->alias[1], r->alias[2]};
        for (int k = 0; k < 4 && names[k]; k++) {
            CHECK(osprey_buffer_find_in(names[k], r->dir, p) == b);
            int same = 0;
            for (uint16_t o = 0; o < nb; o++) {
                const struct proto_buffer *x = reg_buffer(o, &q);
                same += !x->record && x->dir == r->dir && q == p && named(x, names[k]);
            }
            CHECK_EQ_U(same, 1);
        }
    }
    CHECK(reg_buffer(nb, &p) == NULL);
}

static void test_names(void)
{
    /* protocols: ids dense from 2, names and aliases found back, UNKNOWN unnamed */
    uint16_t np = osprey_app_proto_count();
    CHECK(np > 2 && np <= OSPREY_APP_PROTO_MAX);
    CHECK(osprey_app_proto_name(OSPREY_APP_PROTO_UNKNOWN) == NULL);
    CHECK(!strcmp(osprey_app_proto_name(OSPREY_APP_PROTO_FAILED), "failed"));
    for (uint16_t id = 2; id < np; id++) {
        const struct osprey_proto_def *d = reg_proto(id);
        CHECK(d && osprey_app_proto_find(d->name) == id);
        for (size_t a = 0; a < PROTO_N(d->alias) && d->alias[a]; a++)
            CHECK(osprey_app_proto_find(d->alias[a]) == id);
        /* detected by its probes, or only announced by another flow (ftp-data); or a name
         * for another protocol's flows (doh2: HTTP/2's), nothing of its own */
        if (d->parsed_by) {
            int by = osprey_app_proto_find(d->parsed_by);
            CHECK(by > OSPREY_APP_PROTO_FAILED && !reg_proto((uint16_t)by)->parsed_by &&
                  osprey_app_proto_parsed_by(id) == by);
            CHECK(!d->probes && !d->expected && !d->parse && !d->parse_dgram && !d->nevents &&
                  !d->nbuffers && !d->nfields && !d->eve);
        } else {
            CHECK(osprey_app_proto_parsed_by(id) == id);
            CHECK((d->probes != NULL) != d->expected && d->state_free &&
                  (d->parse || d->parse_dgram));
        }
        for (size_t a = 0; a < PROTO_N(d->equals) && d->equals[a]; a++) {
            int e = osprey_app_proto_find(d->equals[a]);
            CHECK(e > OSPREY_APP_PROTO_FAILED && osprey_app_proto_equals(id, (uint16_t)e) &&
                  osprey_app_proto_equals((uint16_t)e, id));
        }
        CHECK(d->tx_counter < (int)d->ncounters);
        CHECK(d->probe_rank >= PROBE_RANK_MIN && d->probe_rank <= PROBE_RANK_MAX);
        char flow[64];
        snprintf(flow, sizeof flow, "flow.%s", d->name);
        CHECK(d->flow_stat && !strcmp(d->flow_stat, flow));
    }
    for (uint16_t e = 0; e < osprey_event_count(); e++)
        CHECK(osprey_event_find(osprey_event_name(e)) == e);
    for (uint16_t f = 0; f < osprey_field_count(); f++)
        CHECK(osprey_field_find(osprey_field_name(f)) == f);
    for (uint16_t e = 0; e < osprey_app_event_count(); e++)
        CHECK(osprey_app_event_find(osprey_app_event_name(e)) == e);
    for (uint16_t i = 0; i < osprey_parsers_stat_count(); i++)
        CHECK(i == OSPREY_APP_PROTO_UNKNOWN ||
              osprey_parsers_stat_find(osprey_parsers_stat_name(i)) == i);
    CHECK(osprey_parsers_stat_count() <= OSPREY_PARSERS_STATS_MAX);
}

/* The accessors' index (flat id → row, protocol) is the registry's answer for every id. */
static void test_index(void)
{
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    CHECK(parsers_index(&p) == 0);
    CHECK_EQ_U(p.nbuf, osprey_buffer_count());
    CHECK_EQ_U(p.nfld, osprey_field_count());
    for (uint16_t b = 0; b < p.nbuf; b++) {
        uint16_t proto;
        CHECK(p.brow[b] == reg_buffer(b, &proto) && p.bproto[b] == proto);
    }
    for (uint16_t f = 0; f < p.nfld; f++) {
        uint16_t proto;
        CHECK(p.frow[f] == reg_field(f, &proto) && p.fproto[f] == proto);
    }
    parsers_index_free(&p);
}

/* buffer_names (buffer_index.c): every name and alias gives exactly the rows that carry it,
 * in ascending buffer id; a name no row carries, or only a prefix of one, gives none. */
static void test_name_lookup(void)
{
    uint16_t nb = osprey_buffer_count(), p;
    for (uint16_t b = 0; b < nb; b++) {
        const struct proto_buffer *r = reg_buffer(b, &p);
        const char *names[4] = {r->name, r->alias[0], r->alias[1], r->alias[2]};
        for (int k = 0; k < 4 && names[k]; k++) {
            uint32_t want = 0;
            for (uint16_t o = 0; o < nb; o++)
                want += named(reg_buffer(o, &p), names[k]);
            const struct buffer_name *e;
            uint32_t n = buffer_names(names[k], &e);
            CHECK_EQ_U(n, want);
            bool self = false;
            for (uint32_t i = 0; i < n; i++) {
                CHECK(!strcmp(e[i].name, names[k]));
                CHECK(i == 0 || e[i - 1].b < e[i].b);
                self |= e[i].b == b;
            }
            CHECK(self);
            /* a prefix of the name is not the name */
            char pre[128];
            size_t len = strlen(names[k]);
            if (len > 1 && len < sizeof pre) {
                memcpy(pre, names[k], len - 1);
                pre[len - 1] = 0;
                uint32_t pw = 0;
                for (uint16_t o = 0; o < nb; o++)
                    pw += named(reg_buffer(o, &p), pre);
                CHECK_EQ_U(buffer_names(pre, &e), pw);
            }
        }
    }
    const struct buffer_name *e;
    CHECK_EQ_U(buffer_names("no.such.buffer", &e), 0);
    CHECK_EQ_U(buffer_names("", &e), 0);
}

static void test_cfg_keys(void)
{
    size_t n = osprey_parsers_cfg_key_count();
    CHECK(n > 0 && osprey_parsers_cfg_key(n) == NULL);
    CHECK(reg_cfg_bytes() <= OSPREY_PARSERS_CFG_BYTES); /* the slots fit their room */
    struct osprey_parsers_cfg cfg;
    osprey_parsers_cfg_defaults(&cfg);
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        CHECK(cfg.mode[id] == OSPREY_APP_ENABLED); /* every protocol on by default */
    unsigned char *lo = (unsigned char *)&cfg, *hi = lo + sizeof cfg;
    for (size_t i = 0; i < n; i++) {
        const struct osprey_parsers_cfg_key *k = osprey_parsers_cfg_key(i);
        uint8_t kind = k->kind & (uint8_t)~OSPREY_CFG_IF_SET;
        size_t size = kind == OSPREY_CFG_BOOL ? sizeof(bool) : sizeof(uint32_t);
        unsigned char *at = osprey_parsers_cfg_at(&cfg, i);
        CHECK(kind <= OSPREY_CFG_ENUM && at >= lo && at + size <= hi);
        CHECK((kind == OSPREY_CFG_ENUM) == (k->names != NULL));
        if (!strcmp(k->key, "app-layer.files.memcap")) { /* the core's own (core/files.c) */
            CHECK(at == (unsigned char *)&cfg.files_memcap);
            continue;
        }
        /* in a protocol's slot, past the modes (the descriptors' own structs) */
        if (at < cfg.proto || at + size > cfg.proto + reg_cfg_bytes())
            fprintf(stderr, "key %s: not in its protocol's settings slot (a row written for "
                            "a member of struct osprey_parsers_cfg: give the protocol a "
                            "settings struct, cfg_size and cfg_defaults, parsers/README.md "
                            "step 7)\n", k->key);
        CHECK(at >= cfg.proto && at + size <= cfg.proto + reg_cfg_bytes());
        CHECK(!strncmp(k->key, "app-layer.protocols.", 20));
        /* each key once, each member once but for another name of an earlier key's */
        bool shared = false;
        for (size_t j = 0; j < i; j++) {
            CHECK(strcmp(osprey_parsers_cfg_key(j)->key, k->key) != 0);
            shared |= osprey_parsers_cfg_at(&cfg, j) == (void *)at;
        }
        CHECK(shared == ((k->kind & OSPREY_CFG_IF_SET) != 0));
    }
    /* a protocol's defaults land in its own slot: HTTP's header limit (32 KiB) */
    for (size_t i = 0; i < n; i++)
        if (!strcmp(osprey_parsers_cfg_key(i)->key, "app-layer.protocols.http.header-limit"))
            CHECK_EQ_U(*(uint32_t *)osprey_parsers_cfg_at(&cfg, i), 32768);
    /* the slots do not overlap: each protocol's starts past the one before it */
    for (uint16_t id = 3; id < osprey_app_proto_count(); id++) {
        const struct osprey_proto_def *prev = reg_proto((uint16_t)(id - 1));
        CHECK(reg_base_of(id).cfg >= reg_base_of((uint16_t)(id - 1)).cfg + prev->cfg_size);
    }
}

/* osprey-trace's views (the descriptors' trace rows): each names an event of its protocol,
 * once, and buffers of that protocol trace finds in the event's direction; the tool's view of
 * an event follows them (osprey_event_trace). */
static void test_trace_views(void)
{
    bool some = false;
    for (uint16_t id = 2; id < osprey_app_proto_count(); id++) {
        const struct osprey_proto_def *d = reg_proto(id);
        for (size_t i = 0; i < d->ntrace; i++) {
            const struct proto_trace *t = &d->trace[i];
            int ev = osprey_event_find(t->event);
            CHECK(ev >= 0 && osprey_event_proto((uint16_t)ev) == id);
            if (ev < 0)
                continue;
            for (size_t j = 0; j < i; j++)
                CHECK(strcmp(d->trace[j].event, t->event));
            for (size_t k = 0; t->buffers[k]; k++) {
                int b = osprey_buffer_find_record(t->buffers[k], osprey_event_dir((uint16_t)ev));
                if (b < 0 || osprey_buffer_proto((uint16_t)b) != id)
                    fprintf(stderr, "%s: trace view of %s: no buffer %s\n", d->name, t->event,
                            t->buffers[k]);
                CHECK(b >= 0 && osprey_buffer_proto((uint16_t)b) == id);
            }
            const char *const *bufs;
            bool fields;
            CHECK(osprey_event_trace((uint16_t)ev, &bufs, &fields) == 1);
            CHECK(bufs == t->buffers && fields == t->fields);
            some = true;
        }
    }
    CHECK(some); /* HTTP, DNS and TLS list theirs */
    /* an event its protocol lists no view of is not shown: http_request_done */
    const char *const *bufs;
    bool fields;
    int done = osprey_event_find("http_request_done");
    CHECK(done >= 0 && osprey_event_trace((uint16_t)done, &bufs, &fields) == 0);
    /* a protocol listing none shows every event (SSH's banners) */
    int banner = osprey_event_find("ssh_client_banner");
    CHECK(banner >= 0 && osprey_event_trace((uint16_t)banner, &bufs, &fields) == 2 && fields);
}

static void test_sets(void)
{
    struct osprey_app_proto_set s = {{0}};
    CHECK(osprey_app_proto_set_empty(&s));
    osprey_app_proto_set_add(&s, 1);
    osprey_app_proto_set_add(&s, 100);
    osprey_app_proto_set_add(&s, OSPREY_APP_PROTO_MAX); /* out of range: ignored */
    CHECK(osprey_app_proto_set_has(&s, 1) && osprey_app_proto_set_has(&s, 100));
    CHECK(!osprey_app_proto_set_has(&s, 64) && !osprey_app_proto_set_has(&s, 0));
    CHECK(!osprey_app_proto_set_has(&s, OSPREY_APP_PROTO_MAX));
}

/* HTTP, DNS and TLS are the table's first rows; the probes still run HTTP, TLS, then the
 * protocols DNS's probe would otherwise take (NetBIOS-NS, mDNS), then DNS (probe_rank). */
static void test_rows_and_probe_order(void)
{
    CHECK(!strcmp(osprey_app_proto_name(2), "http"));
    CHECK(!strcmp(osprey_app_proto_name(3), "dns"));
    CHECK(!strcmp(osprey_app_proto_name(4), "tls"));
    const char *want[] = {"http", "tls", "netbios-ns", "mdns", "dns"};
    size_t k = 0;
    for (int rank = PROBE_RANK_MIN; rank <= PROBE_RANK_MAX; rank++)
        for (uint16_t id = 2; id < osprey_app_proto_count() && k < 5; id++)
            if (reg_proto(id)->probe_rank == rank && reg_proto(id)->probes)
                CHECK(!strcmp(reg_proto(id)->name, want[k++]));
    CHECK_EQ_U(k, 5);
}

/* Suricata's legacy equivalences (AppProtoEquals): doh2 is dns and http2 for rules naming
 * either, a rule naming doh2 takes both; nothing else widens, and not transitively. */
static void test_equals(void)
{
    uint16_t doh2 = (uint16_t)osprey_app_proto_find("doh2");
    uint16_t dns = (uint16_t)osprey_app_proto_find("dns");
    uint16_t h2 = (uint16_t)osprey_app_proto_find("http2");
    uint16_t tls = (uint16_t)osprey_app_proto_find("tls");
    CHECK(doh2 > OSPREY_APP_PROTO_FAILED && osprey_app_proto_parsed_by(doh2) == h2);
    CHECK(osprey_app_proto_equals(dns, doh2) && osprey_app_proto_equals(h2, doh2));
    CHECK(osprey_app_proto_equals(doh2, dns) && osprey_app_proto_equals(doh2, h2));
    CHECK(!osprey_app_proto_equals(dns, h2) && !osprey_app_proto_equals(tls, doh2));
    struct osprey_app_proto_set s = {{0}};
    osprey_app_proto_set_add(&s, dns);
    osprey_app_proto_set_widen(&s);
    CHECK(osprey_app_proto_set_has(&s, dns) && osprey_app_proto_set_has(&s, doh2));
    CHECK(!osprey_app_proto_set_has(&s, h2) && !osprey_app_proto_set_has(&s, tls));
    s = (struct osprey_app_proto_set){{0}};
    osprey_app_proto_set_add(&s, tls);
    osprey_app_proto_set_widen(&s);
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        CHECK(osprey_app_proto_set_has(&s, id) == (id == tls));
}

int main(void)
{
    test_equals();
    test_rows_and_probe_order();
    test_buffers();
    test_names();
    test_index();
    test_name_lookup();
    test_cfg_keys();
    test_sets();
    test_trace_views();
    return unit_report("test_parsers_registry");
}
