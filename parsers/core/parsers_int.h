/* parsers_int.h — what the parsers' files share: the per-flow state, byte buffers, the
 * engine-level object and the worker, and what a protocol calls back (run its events, count,
 * raise anomalies, finish a transaction). A protocol's own entry points are in its descriptor
 * (proto_def.h). Internal to parsers/. */
#ifndef OSPREY_PARSERS_INT_H
#define OSPREY_PARSERS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "osprey_parsers.h"
#include "proto_def.h"
#include "wire.h"

/* ---- bounded byte buffers (bytes.c) ---- */
struct pbuf {
    uint8_t *p;
    uint32_t len, cap;
};
/* Append n bytes, never past max (0 = no limit beyond 4 GiB). Returns the bytes appended
 * (< n when the limit cut it or memory ran out). */
uint32_t pbuf_add(struct pbuf *b, const void *d, size_t n, uint32_t max);
/* Room for want bytes in all, in one allocation (a caller that knows its size spares the
 * doublings' copies); false when out of memory, the buffer unchanged. */
bool pbuf_reserve(struct pbuf *b, size_t want);
void pbuf_consume(struct pbuf *b, uint32_t n);  /* drop n bytes from the front */
void pbuf_free(struct pbuf *b);
static inline void pbuf_reset(struct pbuf *b) { b->len = 0; }

/* A span of a pbuf: where one buffer lies in a message's copy. set=false: absent. */
struct span {
    uint32_t off, len;
    bool set;
};

/* scratch.c: append n bytes to s (growing it); false when out of memory. */
bool scratch_put(struct osprey_scratch *s, const void *d, size_t n);
/* s's bytes (len 0: a non-NULL empty buffer). */
const uint8_t *scratch_bytes(const struct osprey_scratch *s, uint32_t *len);

/* ---- text the protocols share (text.c) ---- */
/* The line of d[at..n) that ends at the next LF: *end its end (a CR before the LF dropped)
 * and *next the byte after the LF; true. With no LF there: the line runs to n (a CR at n
 * dropped), *next = n, and false (a caller that wants whole lines only stops there). */
bool pline_next(const uint8_t *d, size_t n, size_t at, size_t *end, size_t *next);
/* The decimal digits at the start of d[0..n) into *out (saturating at UINT32_MAX); returns
 * how many digits there were (0: none, *out 0). */
size_t pdec_u32(const uint8_t *d, size_t n, uint32_t *out);
/* n bytes as 2n lowercase hex digits and a NUL into out (2n + 1 bytes). */
void phex(char *out, const uint8_t *d, size_t n);
/* A UUID's 16 bytes (in text order) as "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx". */
void puuid_text(char out[37], const uint8_t u[16]);

/* ---- expectations: connections a protocol announced (expect.c) ---- */
#define PEXPECT_MAX 1024                      /* per worker; past it the oldest is shed */
#define PEXPECT_TIMEOUT_US (60ull * 1000000)  /* unclaimed this long after: forgotten */
struct pexpect {
    struct mon_addr a, b;    /* the announcing flow's addresses (either side may connect) */
    uint8_t ipver;
    uint8_t l4;              /* the new flow's transport: 6 TCP, 17 UDP (TFTP's transfer) */
    uint16_t port;           /* the new flow's server port */
    uint16_t proto;          /* its protocol id; 0: a free entry */
    uint64_t expire_us;
    void *data;              /* becomes the new flow's state (free: while unclaimed) */
    void (*free)(void *);
};
struct pexpect_table {
    struct pexpect *e;       /* PEXPECT_MAX entries, made on first use */
    uint16_t *on_port;       /* live entries per server port (65,536, made with e): a new flow
                                on a port none names is decided without a scan */
    uint32_t live;           /* entries in use */
};

/* ---- the engine-level object and the worker ---- */
struct osprey_parsers {
    struct osprey_parsers_cfg cfg;
    mon_event_t app_detected, app_anomaly;
    mon_event_t *ev;        /* each protocol event's UDE, by flat event id */
    struct reg_base *base;  /* each protocol id's flat bases (registry.c), cached */
    /* flat buffer / field id → its row and protocol (parsers_index): the accessors' look-up
     * on the packet path is one load, not a walk of the registry */
    const struct proto_buffer **brow;
    const struct proto_field **frow;
    uint16_t *bproto, *fproto;
    uint16_t nbuf, nfld;
    bool *wanted;           /* by flat buffer id: a rule reads it (osprey_parsers_want_buffer) */
    mon_event_t app_root;   /* PKT_IN UDE: parses UDP, and is the parent of every app event */
    mon_event_t tcp_data;   /* CONN_NEW_DATA UDE: parses TCP streams */
    mon_event_t tcp_end;    /* CONN_END UDE: finishes what the end of a flow completes */
    int slot;
    unsigned files;         /* OSPREY_FILES_*: what every file gets (osprey_parsers_set_files) */
};

struct osprey_parsers_worker {
    const struct osprey_parsers *p;
    struct mon_ctx *ctx;
    struct mon_sock *sock;
    struct osprey_parsers_stats st;
    struct osprey_scratch scratch; /* derived buffers asked for without a scratch */
    struct pexpect_table expect;   /* announced connections (expect.c) */
    osprey_tx_fn tx_fn;
    void *tx_arg;
    uint64_t file_bytes;           /* files' bytes kept now (files.c: against files_memcap) */
    void *magic;                   /* libmagic's handle (magic_t), made on first use: one per
                                      worker, as libmagic is not thread safe */
    bool magic_failed;             /* it could not be loaded: no magic */
};

/* ---- per-flow state (flow.c) ---- */
/* Directions: 0 = to server (received by MON_SIDE_SVR), 1 = to client. */
#define DIR_OF_SIDE(side) ((side) == MON_SIDE_SVR ? 0 : 1)
#define SIDE_OF_DIR(dir) ((dir) == 0 ? MON_SIDE_SVR : MON_SIDE_CLI)

struct pfile;
#define PFLOW_TX_ANOMALIES 8
struct pflow {
    struct osprey_parsers_worker *w;
    uint16_t proto;         /* protocol id (registry.c) */
    bool dead[2];           /* a direction given up on (gap, malformed beyond repair) */
    bool started[2];
    struct pbuf in[2];      /* bytes read but not parsed yet, per direction (bounded) */
    uint64_t off[2];        /* next stream offset to read (mon_ppeek), per direction */
    uint64_t seen[2];       /* bytes read per direction */
    void *state;            /* the decided protocol's state (its state_free frees it) */
    int32_t anomaly;        /* flat anomaly id being raised now, -1: none */
    /* the last anomalies raised, with the transaction each was raised in (the descriptor's
     * tx_id then): a rule on buffers that names one (app-layer-event beside http.* …) asks
     * whether the current transaction raised it, as Suricata keeps events per transaction */
    struct pflow_tx_anomaly { uint32_t tx; int32_t anomaly; } tx_anom[PFLOW_TX_ANOMALIES];
    uint8_t tx_anom_next;   /* the ring's next slot */
    struct pflow *guest;    /* the protocol this flow's carries (pflow_guest), or NULL */
    struct pflow *host;     /* a guest's: the flow's own pflow (NULL for that one) */
    struct pfile *files;    /* its files, oldest first (files.c) */
    uint32_t file_ids;      /* the last file id given */
    int64_t store_tx[2];    /* filestore asked for this transaction's files per direction
                               (-1: none) */
    bool store_flow[2];     /* … for every file of the flow, per direction */
    uint16_t upgrade;       /* the protocol the flow becomes once this parse returns, 0: none */
    uint16_t orig;          /* the protocol before the last upgrade (0: none happened) */
    int8_t upgrade_dir;     /* the direction whose bytes after the switch are in upgrade_rest */
    uint16_t expect;        /* the protocol a change announced (pflow_redetect), 0: none */
    bool changing;          /* a change is under way: detection again, then the new
                               protocol's first transaction (pflow_tx_done ends it) */
    struct pbuf upgrade_rest;
    /* each direction's own detection (Suricata's alproto_ts / alproto_tc): UNKNOWN until its
     * first bytes were probed; another protocol than the flow's is a mismatch (drivers.c) */
    uint16_t dir_proto[2];
    struct pbuf late;       /* the first bytes of the direction probed after the decision,
                               while its probes want more (drivers.c, bounded) */
    uint8_t late_dir;       /* the direction whose bytes `late` holds */
    uint16_t named;         /* what the flow's parser classified it as (HTTP/2's doh2:
                               pflow_classify), 0: its own protocol */
    uint8_t payload;        /* enum osprey_payload: content rules still read the flow's
                               payload, or no longer (pflow_payload_off) */
};

/* The flow's payload is encrypted from here on (TLS application data, SSH after both sides'
 * NEWKEYS): content rules stop reading its packets' payload and its stream
 * (osprey_parsers_payload: how); the parser and the rules on its buffers go on. */
static inline void pflow_payload_off(struct pflow *pf, enum osprey_payload how)
{
    if (pf->payload == OSPREY_PAYLOAD_INSPECTED)
        pf->payload = (uint8_t)how;
}

/* The flow's protocol's settings (its descriptor's cfg_size struct, registry slot). */
static inline const void *pflow_cfg(const struct pflow *pf)
{
    return pf->w->p->cfg.proto + pf->w->p->base[pf->proto].cfg;
}
/* Does a rule read the flow's protocol's buffer row `row` (its descriptor's index)? For a
 * buffer filled only when read (SSH's HASSH: osprey_parsers_want_buffer). */
static inline bool pflow_wants(const struct pflow *pf, unsigned row)
{
    const struct osprey_parsers *p = pf->w->p;
    uint32_t b = (uint32_t)p->base[pf->proto].buffer + row;
    return p->wanted && b < p->nbuf && p->wanted[b];
}
/* Protocol proto's settings slot in cfg (for tests and defaults: writable). */
static inline void *parsers_proto_cfg(struct osprey_parsers_cfg *cfg, uint16_t proto)
{
    return cfg->proto + reg_base_of(proto).cfg;
}
/* Is protocol proto parsed here (app-layer.protocols.<name>.enabled: yes)? */
static inline bool parsers_parses(const struct osprey_parsers *p, uint16_t proto)
{
    return proto < OSPREY_APP_PROTO_MAX && p->cfg.mode[proto] == OSPREY_APP_ENABLED;
}

struct pflow *pflow_get(struct mon_ctx *ctx, const struct mon_flow *f);
struct pflow *pflow_make(struct osprey_parsers_worker *w, struct mon_flow *f);
void pflow_free_slot(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg);
/* Run an app event (its subtree, now) for this flow with direction dir's side. */
void pflow_run(struct pflow *pf, struct mon_flow *f, int dir, mon_event_t ev);
/* A message of direction dir ended: under ack delivery, with raw_trigger in its descriptor,
 * its acknowledged bytes go to stream inspection with the direction's next packet
 * (pflow_run does it after each event; a message that raises none calls it itself). */
void pflow_raw_trigger(struct pflow *pf, struct mon_flow *f, int dir);
/* Run the flow's protocol's event number ev (its own numbering: the descriptor's row). */
void pflow_raise(struct pflow *pf, struct mon_flow *f, int dir, unsigned ev);
/* The protocol is decided: count it and run app_detected. Both directions' own results are
 * proto. pflow_decide_dirs: the same with each direction's own (UNKNOWN for one not probed
 * yet), without app_detected (the caller runs it once the deciding bytes are parsed). */
void pflow_decide(struct pflow *pf, struct mon_flow *f, int dir, uint16_t proto);
void pflow_decide_dirs(struct pflow *pf, uint16_t proto, uint16_t ts, uint16_t tc);
/* The flow's parser (HTTP/2) tells what the flow is (doh2: DNS over HTTP/2, a registered
 * descriptor whose parsed_by is the flow's protocol): EVE's app_proto and app-layer-protocol
 * say proto from now on, both directions too, and the parser's protocol becomes the flow's
 * original (Suricata's AppLayerForceProtocolChange). Its parser, events and buffers stay the
 * flow's protocol's. Nothing when proto is configured off. */
void pflow_classify(struct pflow *pf, uint16_t proto);
void pflow_tx_done(struct pflow *pf, struct mon_flow *f);
/* The flow becomes protocol proto (HTTP/1's 101 Switching Protocols to h2c): when the parse
 * running now returns, the old state is freed, both directions are read again, as proto
 * (its descriptor's `upgraded` makes its state), and the bytes after the switch in this
 * chunk (given with pflow_upgrade_rest, bounded) are parsed first. */
/* false, and nothing asked, while a protocol change is under way (pflow_redetect: the new
 * protocol's first bytes): Suricata refuses a second change then (the protocol raises its
 * failed_protocol_change event). */
bool pflow_upgrade(struct pflow *pf, uint16_t proto);
void pflow_upgrade_rest(struct pflow *pf, int dir, const uint8_t *d, size_t n);
/* Do the switch pflow_upgrade asked for (drivers.c, after a parse of direction dir's bytes),
 * and run app_detected again: the flow's protocol is decided anew (Suricata runs protocol
 * detection again on a change, and its detection-only rules look again). */
void pflow_switch(struct pflow *pf, struct mon_flow *f, int dir);
/* The flow's protocol's anomaly number e (its own numbering) seen in direction dir: run
 * app_anomaly with it current. */
void pflow_anomaly(struct pflow *pf, struct mon_flow *f, int dir, unsigned e);
/* The core's generic events (Suricata's applayer_*, no protocol's), after every protocol's
 * anomalies in the flat id space (registry.c); raised as pflow_anomaly raises one. */
enum { PGEN_UNEXPECTED_PROTOCOL, PGEN_NO_TLS_AFTER_STARTTLS, PGEN_MISMATCH_BOTH_DIRECTIONS,
       PGEN__COUNT };
uint16_t reg_generic_anomaly_base(void);
bool reg_proto_is_tls(uint16_t id); /* (registry.c: STARTTLS announces it) */
void pflow_generic_anomaly(struct pflow *pf, struct mon_flow *f, int dir, unsigned g);
/* The flow changes protocol (SMTP's STARTTLS → TLS): the old state is freed, the new
 * protocol's parser gets the bytes from here, from a fresh state. Not counted as a new flow. */
void pflow_become(struct pflow *pf, uint16_t proto);
/* The flow changes protocol to one its next bytes tell (Suricata's protocol change after
 * STARTTLS: detection runs again, `expect`'s probes first; another protocol than expect may
 * win — HTTP where TLS was announced). The old state is freed; until the new protocol has
 * finished its first transaction the change is under way (pf->changing: pflow_upgrade
 * refuses; Suricata's window is the chunk detection decided on, whose transaction this is).
 * d, n: this chunk's bytes after the change (direction dir), detection's first. */
void pflow_redetect(struct pflow *pf, struct mon_flow *f, int dir, uint16_t expect,
                    const uint8_t *d, size_t n);
/* drivers.c: bytes of direction dir as a new chunk (detection when undecided, else parse). */
void parsers_feed(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
/* Add n to the flow's protocol's counter number c (its own numbering). */
void pflow_count(struct pflow *pf, unsigned c, uint64_t n);

/* A protocol carried inside the flow's (DCERPC over SMB named pipes; the host's descriptor
 * lists it in `carries`): the guest's pflow, made on first use, freed with the host's. The
 * host feeds it bytes with pflow_guest_feed (the guest descriptor's own parse: its framing,
 * its events run on the flow, its anomalies and counters are its own); the flow's accessors
 * read the guest's buffers and fields; its transactions are not reported on their own (the
 * host's record carries them: pflow_guest_eve). NULL: out of memory, or name is not a
 * protocol the host carries. */
struct pflow *pflow_guest(struct pflow *host, const char *name);
void pflow_guest_feed(struct pflow *g, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
/* Do bytes d[0..n) of direction dir start the guest protocol name (its own TCP probes)? A
 * host asks before feeding a channel that may or may not carry it (a named pipe). */
enum probe_verdict pflow_guest_probe(const struct pflow *host, const char *name, int dir,
                                     const uint8_t *d, size_t n);
/* The guest's EVE object written into the host's open one (false: it has none). */
bool pflow_guest_eve(struct pflow *g, struct osprey_jw *w);

/* Expect a TCP flow between ctl's two addresses to server port `port`: it will be protocol
 * proto's with state data (freed with free_fn if never claimed). True when the table was full
 * and the oldest expectation was shed (the caller counts it). */
bool pexpect_add(struct osprey_parsers_worker *w, const struct mon_flow *ctl, uint16_t port,
                 uint16_t proto, void *data, void (*free_fn)(void *));
/* The same for a flow of transport l4 (17: a UDP flow, TFTP's transfer: its first datagram's
 * receiver port is `port`). */
bool pexpect_add_l4(struct osprey_parsers_worker *w, const struct mon_flow *ctl, uint8_t l4,
                    uint16_t port, uint16_t proto, void *data, void (*free_fn)(void *));
/* A new flow (no protocol yet, first bytes or datagram in direction dir): when an expectation matches,
 * decide its protocol, give it the expectation's state and return true. */
bool pexpect_claim(struct pflow *pf, struct mon_flow *f, int dir);
void pexpect_free(struct pexpect_table *t);

/* define.c: build / free p's id → row indexes (brow, frow …); -1 when out of memory. */
int parsers_index(struct osprey_parsers *p);
void parsers_index_free(struct osprey_parsers *p);

/* ---- protocol detection helper (detect.c) ---- */
/* PROBE_YES when d starts with word; PROBE_NEED_MORE when d is a proper prefix of it. */
enum probe_verdict probe_prefix(const uint8_t *d, size_t n, const char *word, size_t wl);

#endif
