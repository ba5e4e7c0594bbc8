/* app_out.c — osprey-trace --app: one JSON line per application event, with the buffers the
 * parsers expose under it (name → bytes, escaped so any byte survives JSON), so tests can
 * assert exact buffer contents. Which events and buffers are shown is each protocol's
 * descriptor's (its trace views, osprey_event_trace): no protocol is listed here. */
#include <stdlib.h>
#include <string.h>

#include "app_out.h"
#include "json_out.h"

struct trace_app {
    struct osprey_parsers *p;
    struct osprey_parsers_worker *w;
    FILE *out;
    struct app_event *ev;      /* per event printed (app_detected first) */
    uint32_t nev;
};

struct app_event {
    struct trace_app *a;
    const char *name;
    int dir;                  /* the event's direction: its buffers' */
    uint16_t bufs[64];
    uint32_t nbufs;
    int fields_of;            /* protocol id whose fields are shown, -1: none */
    const struct osprey_trace_object *obj; /* what else its protocol shows, or NULL */
    const char *proto;        /* its protocol's name (the object's key) */
};

/* The event's view, from its protocol's descriptor (osprey_event_trace): the record buffers
 * it lists, or every buffer current under it for a protocol that lists none. false: not
 * shown. */
static bool event_view(uint16_t ev, struct app_event *out)
{
    const char *name = osprey_event_name(ev);
    uint16_t proto = osprey_event_proto(ev);
    *out = (struct app_event){.name = name, .dir = osprey_event_dir(ev), .fields_of = -1,
                              .obj = osprey_event_trace_object(ev),
                              .proto = osprey_app_proto_name(proto)};
    const char *const *bufs;
    bool fields;
    int view = osprey_event_trace(ev, &bufs, &fields);
    if (!view)
        return false;
    if (fields)
        out->fields_of = proto;
    if (view == 1) {
        for (size_t k = 0; bufs[k] && out->nbufs < 64; k++) {
            int b = osprey_buffer_find_record(bufs[k], out->dir);
            if (b >= 0)
                out->bufs[out->nbufs++] = (uint16_t)b;
        }
        return true;
    }
    for (uint16_t b = 0; b < osprey_buffer_count() && out->nbufs < 64; b++)
        if (osprey_buffer_event(b) == ev)
            out->bufs[out->nbufs++] = b;
    return true;
}

/* Field name's element i of the flow's transaction; false when absent. */
static bool field_at(struct mon_ctx *ctx, const struct mon_flow *f, const char *name, uint32_t i,
                     int64_t *v)
{
    int id = osprey_field_find(name);
    return id >= 0 && osprey_parsers_field_at(ctx, f, (uint16_t)id, i, v);
}

/* Element i of the record buffer name, NULL when absent. */
static const uint8_t *record_at(struct mon_ctx *ctx, const struct mon_flow *f, const char *name,
                                uint32_t i, uint32_t *len)
{
    int b = osprey_buffer_find_record(name, 1);
    *len = 0;
    return b >= 0 ? osprey_parsers_buffer_at(ctx, f, (uint16_t)b, i, NULL, len) : NULL;
}

/* Value v's element i: an integer field or a record buffer's bytes; NULL when absent. */
static json_t *value_at(struct mon_ctx *ctx, const struct mon_flow *f,
                        const struct osprey_trace_value *v, uint32_t i)
{
    if (!v->buffer) {
        int64_t x;
        return field_at(ctx, f, v->name, i, &x) ? json_integer(x) : NULL;
    }
    uint32_t n;
    const uint8_t *d = record_at(ctx, f, v->name, i, &n);
    return d ? trace_app_bytes(d, n) : NULL;
}

/* The object the event's protocol shows (its descriptor's trace view, osprey_event_trace_
 * object): its values, each present, then its list; NULL when a value is absent. */
static json_t *object_json(struct mon_ctx *ctx, const struct mon_flow *f,
                           const struct osprey_trace_object *ob)
{
    json_t *o = json_object();
    for (const struct osprey_trace_value *v = ob->values; v && v->key; v++) {
        json_t *x = value_at(ctx, f, v, 0);
        if (!x) {
            json_decref(o);
            return NULL;
        }
        json_object_set_new(o, v->key, x);
    }
    if (!ob->list || !ob->items)
        return o;
    json_t *list = json_array();
    for (uint32_t i = 0;; i++) {
        json_t *e = json_object();
        bool whole = true;
        for (const struct osprey_trace_value *v = ob->items; v->key && whole; v++) {
            json_t *x = value_at(ctx, f, v, i);
            if (!x && !v->buffer)
                whole = false; /* the list ends where a field has no element */
            else
                json_object_set_new(e, v->key, x ? x : json_string(""));
        }
        if (!whole) {
            json_decref(e);
            break;
        }
        json_array_append_new(list, e);
    }
    json_object_set_new(o, ob->list, list);
    return o;
}

/* The protocol's fields of the current transaction, named without the "<proto>." prefix
 * (an absent one left out); NULL when the flow has none. */
static json_t *fields_json(struct mon_ctx *ctx, const struct mon_flow *f, uint16_t proto)
{
    json_t *o = NULL;
    size_t pl = strlen(osprey_app_proto_name(proto));
    for (uint16_t i = 0; i < osprey_field_count(); i++) {
        int64_t v;
        if (osprey_field_proto(i) != proto || !osprey_parsers_field_at(ctx, f, i, 0, &v))
            continue;
        if (!o)
            o = json_object();
        const char *n = osprey_field_name(i);
        json_object_set_new(o, strlen(n) > pl && n[pl] == '.' ? n + pl + 1 : n,
                            json_integer(v));
    }
    return o;
}

json_t *trace_app_bytes(const uint8_t *d, uint32_t n)
{
    char *s = malloc((size_t)n * 4 + 1);
    if (!s)
        return json_null();
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = d[i];
        if (c == '\\') {
            s[k++] = '\\';
            s[k++] = '\\';
        } else if (c >= 0x20 && c < 0x7f) {
            s[k++] = (char)c;
        } else {
            static const char hx[] = "0123456789abcdef";
            s[k++] = '\\';
            s[k++] = 'x';
            s[k++] = hx[c >> 4];
            s[k++] = hx[c & 15];
        }
    }
    json_t *j = json_stringn(s, k);
    free(s);
    return j;
}

static void on_app(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev;
    const struct app_event *ae = arg;
    FILE *out = stdout;
    json_t *o = json_object();
    char ts[64];
    const struct mon_packet *p = mon_getlastpkt(ctx);
    trace_format_time(p ? p->ts_us : f->last_us, ts, sizeof ts);
    json_object_set_new(o, "timestamp", json_string(ts));
    json_object_set_new(o, "flow_id", json_integer((json_int_t)f->id));
    json_object_set_new(o, "event_type", json_string("app"));
    json_object_set_new(o, "event", json_string(ae->name));
    const char *proto = osprey_app_proto_name(osprey_parsers_app_proto(ctx, f));
    json_object_set_new(o, "app_proto", proto ? json_string(proto) : json_null());
    json_object_set_new(o, "direction", json_string(side == MON_SIDE_SVR ? "toserver" : "toclient"));
    json_object_set_new(o, "tx_id", json_integer(osprey_parsers_tx_id(ctx, f)));
    for (const struct osprey_trace_value *v = ae->obj ? ae->obj->top : NULL; v && v->key; v++) {
        json_t *x = value_at(ctx, f, v, 0);
        if (x && !(json_is_integer(x) && json_integer_value(x) == 0))
            json_object_set_new(o, v->key, x);
        else
            json_decref(x);
    }
    json_t *bufs = json_object();
    for (uint32_t k = 0; k < ae->nbufs; k++) {
        uint16_t b = ae->bufs[k];
        uint32_t len;
        const uint8_t *d = osprey_parsers_buffer(ctx, f, b, &len);
        if (d && osprey_buffer_is_multi(b)) { /* a multi-buffer: the list of its elements */
            json_t *all = json_array();
            for (uint32_t i = 0; (d = osprey_parsers_buffer_at(ctx, f, b, i, NULL, &len)); i++)
                json_array_append_new(all, trace_app_bytes(d, len));
            json_object_set_new(bufs, osprey_buffer_name(b), all);
        } else if (d) {
            json_object_set_new(bufs, osprey_buffer_name(b), trace_app_bytes(d, len));
        }
    }
    json_t *fl = ae->fields_of >= 0 ? fields_json(ctx, f, (uint16_t)ae->fields_of) : NULL;
    if (fl)
        json_object_set_new(o, osprey_app_proto_name((uint16_t)ae->fields_of), fl);
    json_t *obj = ae->obj && (ae->obj->values || ae->obj->list) ? object_json(ctx, f, ae->obj)
                                                                : NULL;
    if (obj)
        json_object_set_new(o, ae->proto, obj);
    json_object_set_new(o, "buffers", bufs);
    trace_emit(out, o);
}

struct trace_app *trace_app_define(struct mon_engine *eng, const struct osprey_parsers_cfg *cfg,
                                   FILE *out)
{
    struct trace_app *a = calloc(1, sizeof *a);
    if (!a || osprey_parsers_define(eng, cfg, &a->p) != 0) {
        fprintf(stderr, "osprey-trace: cannot define the app-layer parsers\n");
        free(a);
        return NULL;
    }
    a->out = out;
    return a;
}

int trace_app_attach(struct trace_app *a, struct mon_ctx *ctx)
{
    if (!(a->w = osprey_parsers_attach(a->p, ctx)))
        return -1;
    uint16_t n = osprey_event_count();
    if (!(a->ev = calloc((size_t)n + 1, sizeof *a->ev)))
        return -1;
    struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
    if (!s)
        return -1;
    a->ev[0] = (struct app_event){.a = a, .name = "app_detected", .fields_of = -1};
    if (mon_register(ctx, s, osprey_parsers_app_detected(a->p), MON_HK_ANY, on_app,
                     &a->ev[0]) != MON_OK)
        return -1;
    a->nev = 1;
    for (uint16_t e = 0; e < n; e++) {
        struct app_event *ae = &a->ev[a->nev];
        if (!event_view(e, ae))
            continue;
        ae->a = a;
        a->nev++;
        if (mon_register(ctx, s, osprey_parsers_event(a->p, e), MON_HK_ANY, on_app, ae) !=
            MON_OK)
            return -1;
    }
    return 0;
}

const char *trace_app_proto_orig(struct trace_app *a, struct mon_ctx *ctx,
                                 const struct mon_flow *f)
{
    return a ? osprey_app_proto_name(osprey_parsers_app_proto_orig(ctx, f)) : NULL;
}

const char *trace_app_proto(struct trace_app *a, struct mon_ctx *ctx, const struct mon_flow *f)
{
    /* as EVE names it (doh2 for HTTP/2 carrying DNS) */
    return a ? osprey_app_proto_name(osprey_parsers_app_proto_named(ctx, f)) : NULL;
}

json_t *trace_app_stats_json(const struct trace_app *a)
{
    const struct osprey_parsers_stats *s = osprey_parsers_worker_stats(a->w);
    json_t *o = json_object(), *fl = json_object();
    /* the flows of each protocol (FAILED included), then every protocol's own counters */
    for (uint16_t p = OSPREY_APP_PROTO_FAILED; p < osprey_app_proto_count(); p++)
        json_object_set_new(fl, osprey_app_proto_name(p), json_integer((json_int_t)s->v[p]));
    json_object_set_new(o, "flows", fl);
    for (uint16_t i = osprey_app_proto_count(); i < osprey_parsers_stat_count(); i++)
        json_object_set_new(o, osprey_parsers_stat_name(i), json_integer((json_int_t)s->v[i]));
    return o;
}

void trace_app_free(struct trace_app *a)
{
    if (!a)
        return;
    osprey_parsers_worker_free(a->w);
    osprey_parsers_free(a->p);
    free(a->ev);
    free(a);
}
