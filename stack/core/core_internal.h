/* core_internal.h — libmon's core objects: the engine, a worker context, passive sockets.
 * Internal to stack/core; applications see only mon.h. */
#ifndef MON_CORE_INTERNAL_H
#define MON_CORE_INTERNAL_H

#include <pcap/pcap.h>

#include "event_contract_internal.h"
#include "mon.h"
#include "tcp_contract_internal.h"

#define CORE_SCOPE_CACHE 64  /* distinct sets of matching passive sockets remembered */
#define CORE_RUN_NEST 4      /* mon_run_event inside mon_run_event: levels allowed */

struct mon_engine {
    struct mon_engine_cfg cfg;
    struct mon_host_policy *hosts_defrag, *hosts_tcp;  /* owned copies of the policy tables */
    struct ev_registry *reg;
    /* per-flow user slots (mon_uctx_slot_alloc): a destructor each, run as a flow ends */
    unsigned nslots;
    mon_uctx_free_fn slot_free[MON_UCTX_SLOTS];
    void *slot_arg[MON_UCTX_SLOTS];
};

struct mon_sock {
    struct mon_sock *next;
    enum mon_sock_type type;
    unsigned bit;                 /* index among stream sockets (scope-set bit), < 64 */
    bool has_prog;
    struct bpf_program prog;      /* compiled for DLT_RAW: runs on the innermost IP datagram */
    /* Its registrations. The forest is built from the whole list when a flow first needs it:
     * registering thousands of rule handlers one by one then costs one build, not one per
     * registration. */
    struct ev_pair *pairs;
    size_t npairs, cap;
    uint32_t *index;              /* open-addressed set of pair positions + 1, for duplicates */
    size_t index_size;            /* power of two, >= 2 * cap; 0 = none yet */
    struct ev_forest *forest;     /* NULL while stale */
};

/* Which phase of mon_process is running: decides what handlers may do. */
enum core_phase { PH_NONE, PH_SND, PH_REXMIT, PH_RCV, PH_END };

/* Flow bookkeeping bits in mon_flow.mon_flags. */
enum {
    FF_CONN_END = 1u << 0,    /* CONN_END already raised */
    FF_ONE_SIDED = 1u << 1,   /* ONE_SIDED already raised */
    FF_TCP_LIVE = 1u << 2,    /* TCP connection tracked (not an orphan-only flow) */
    FF_BUFFERS = 1u << 3,     /* someone waits on events: reassemble */
    FF_TCP_WAIT = 1u << 4,    /* TCP, first packets had a bad checksum: the connection is
                                 looked for again at the next good one (checksum_validation) */
    FF_RESCOPE = 1u << 7,     /* rebound to a new engine: next packet finds its forest (rebind.c) */
};

struct scope_entry {
    uint64_t mask;
    struct ev_forest *forest;
};

struct mon_ctx {
    struct mon_engine *eng;
    int worker;
    struct mon_decoder dec;
    struct mon_defrag *df;
    struct mon_flow_table *ft;
    struct tcp_ctx tcp;
    struct ev_forests *forests;
    struct ev_runner *runner;
    /* mon_run_event walks on its own runner per nesting level (made on first use), as the
     * walk it is called from is still using `runner`; mon_raise_event goes to the innermost */
    struct ev_runner *nested[CORE_RUN_NEST];
    unsigned nest;
    int hook_now;                      /* hook of the walk running now, -1 outside */
    struct ev_forest *forest_now;      /* forest of the walk running now (core_run), or NULL */
    void *slot_val[MON_UCTX_SLOTS];    /* mon_ctx_slot_set: a library's per-worker object */
    struct mon_event_stats evstats;

    struct mon_sock *socks;
    unsigned nstream;                  /* stream sockets made (bits used) */
    struct scope_entry scope[CORE_SCOPE_CACHE];
    unsigned nscope;

    struct mon_packet *cur;            /* packet being processed (NULL outside) */
    struct mon_packet *viewed;         /* mon_ack_view: the real one while cur is &view */
    struct mon_packet view;
    enum core_phase phase;
    uint64_t now;                      /* latest packet time seen */
    uint64_t clock;                    /* the flow table's idle clock (mon_flow_clock) */
    uint64_t last_num;                 /* highest packet num processed (flow-end packets) */
    mon_flow_end_cb end_cb;
    void *end_arg;
    mon_flow_end_cb closed_cb; /* a connection closed (mon_set_conn_closed_cb) */
    void *closed_arg;
    char errmsg[256];
};

/* socket.c */
struct ev_forest *core_sock_forest(struct mon_ctx *ctx, struct mon_sock *s);
struct ev_forest *core_scope_forest(struct mon_ctx *ctx, const struct mon_packet *p);
bool core_sock_matches(const struct mon_sock *s, const struct mon_packet *p);
void core_scope_clear(struct mon_ctx *ctx);
enum mon_hook core_hook_for(const struct mon_ctx *ctx, mon_event_t ev, enum mon_hook hook);

/* ctx.c */
void core_free_slots(struct mon_ctx *ctx, struct mon_flow *f);

/* rebind.c */
void core_rescope(struct mon_ctx *ctx, struct mon_flow *f, const struct mon_packet *p);

/* process.c */
void core_flow_end(struct mon_flow *f, void *arg);
void core_run(struct mon_ctx *ctx, struct ev_forest *forest, int hook, uint32_t bits,
              struct mon_flow *f, int side);

int core_err(struct mon_ctx *ctx, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
