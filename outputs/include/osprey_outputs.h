/* osprey_outputs.h — records leave the engine through here.
 *
 * outputs/ sees records only (never libmon or rule internals): the engine fills one of the
 * structs below and asks for its text. Each *_line function returns one complete record as a
 * malloc'd string (EVE: one JSON object and its '\n'; fast.log: one line), or NULL when out
 * of memory; the caller writes it whole (osprey_log_file.h) and frees it. EVE lines use
 * Suricata's key names and order, so existing EVE consumers read them unchanged.
 */
#ifndef OSPREY_OUTPUTS_H
#define OSPREY_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "osprey_geoip.h" /* struct osprey_geo */

struct osprey_eve_meta {
    const char *key, *value;
};

/* Bytes from a parser's buffer (not NUL-terminated); n == 0: absent, key left out. */
struct osprey_span {
    const uint8_t *p;
    uint32_t n;
};

/* An application-layer object, as Suricata writes it in http/dns/tls … records and alerts:
 * the record type and a writer that puts "<name>": {…} into the open record. The protocols
 * write their own objects (parsers/<proto>/eve.c): outputs/ knows none of them. */
struct osprey_jw;
struct osprey_eve_app {
    const char *name;             /* the record type ("http" …); NULL: none */
    bool tx_id;                   /* the record carries "tx_id" at its top (Suricata's http) */
    void (*write)(struct osprey_jw *w, const struct osprey_eve_app *app);
    const void *arg[2];           /* the writer's (opaque here) */
};

/* A completed application transaction (event_type http, dns or tls). */
struct osprey_eve_tx {
    uint64_t ts_us, flow_id, pcap_cnt;  /* pcap_cnt 0 = left out */
    const char *src_ip, *dest_ip;       /* the flow's client and server */
    int src_port, dest_port;
    const char *proto;
    const char *community_id;           /* NULL = left out */
    uint32_t tx_id;
    const struct osprey_eve_app *app;
};

/* A variable a rule captured: the flow's and the packet's go into the record's
 * metadata.flowvars / metadata.pktvars, an alert's into alert.context (Suricata's keys). */
enum osprey_eve_var_scope { OSPREY_EVE_FLOWVAR, OSPREY_EVE_PKTVAR, OSPREY_EVE_CONTEXT };
struct osprey_eve_var {
    int scope;                 /* enum osprey_eve_var_scope */
    const char *name;
    const uint8_t *value;
    uint32_t len;
};

struct osprey_eve_file; /* below */
/* Where a packet from a tunnel (or defrag) came from: the outermost packet on the wire, as
 * Suricata's alert "tunnel" object. */
struct osprey_eve_tunnel {
    const char *src_ip, *dest_ip;
    int src_port, dest_port;   /* 0 when the root has none (written, as Suricata does) */
    const char *proto;
    int depth;                 /* tunnels between the root and the alerting packet */
    uint64_t pcap_cnt;         /* the root's; 0 = left out */
    const char *pkt_src;
};

struct osprey_eve_alert {
    uint64_t ts_us;            /* packet time, microseconds since the epoch */
    uint64_t flow_id;          /* 0 = no flow: key left out */
    uint64_t pcap_cnt;         /* 0 = not from a capture: key left out */
    const char *src_ip, *dest_ip; /* the alerting packet's */
    int src_port, dest_port;   /* -1 = the protocol has none: keys left out */
    int ip_v;                  /* 4 or 6 (Suricata 8's ip_v), 0 = left out */
    const char *proto;         /* "TCP", "UDP", "ICMP", "IPv6-ICMP", or a number */
    int icmp_type, icmp_code;  /* ICMP packets: written after proto, as Suricata does */
    bool icmp;
    const char *community_id;  /* NULL = left out */
    const char *direction;     /* "to_server" / "to_client", NULL = left out */
    const char *pkt_src;       /* Suricata's: "wire/pcap", "gre tunnel" …; NULL = left out */
    const char *engine;        /* alert.engine: "fw" for a firewall rule's alert (Suricata 8),
                                  NULL = left out (threat detection) */
    const struct osprey_eve_tunnel *tunnel; /* a packet from a tunnel/defrag; NULL = left out */
    const char *action;        /* "allowed", "blocked" */
    uint32_t gid, sid, rev;
    const char *signature, *category;
    int severity;
    uint32_t nmeta;            /* grouped by key: {"key": ["v1", "v2"]} */
    const struct osprey_eve_meta *meta;
    uint32_t nvars;            /* captured variables, in order (0 = no context, no metadata) */
    const struct osprey_eve_var *vars;
    const struct osprey_eve_app *app; /* NULL or no name = no application object */
    const struct osprey_eve_file *files; /* the transaction's files in the alert's direction */
    uint32_t nfiles;           /* 0 = "files" left out */
    const char *app_proto;     /* NULL = left out */
    /* each direction's own protocol when it is not app_proto (a client talking HTTP to an
     * SSH server); NULL = left out */
    const char *app_proto_ts, *app_proto_tc;
    bool has_flow;
    struct {
        uint64_t pkts_toserver, pkts_toclient, bytes_toserver, bytes_toclient;
        uint64_t start_us;
        const char *src_ip, *dest_ip; /* the flow's client and server */
        int src_port, dest_port;
    } flow;
    const struct osprey_geo *src_geo, *dest_geo; /* NULL or !found = left out */
};

/* A flow that ended (event_type "flow"). */
struct osprey_eve_flow {
    uint64_t flow_id;
    const char *src_ip, *dest_ip; /* client, server */
    int src_port, dest_port;      /* -1 = none */
    const char *proto;
    const char *community_id;     /* NULL = left out */
    int icmp_type, icmp_code;     /* -1 = not ICMP */
    int response_icmp_type, response_icmp_code; /* -1 = no reply seen */
    uint32_t ntunnels;
    const char *const *tunnels;   /* "encapsulation": outermost first */
    const char *app_proto;        /* NULL = left out */
    const char *app_proto_orig;   /* before the protocol changed (h2c, STARTTLS); NULL = left out */
    const char *app_proto_ts, *app_proto_tc; /* a direction's own protocol when it is not
                                                app_proto; NULL = left out */
    uint64_t pkts_toserver, pkts_toclient, bytes_toserver, bytes_toclient;
    uint64_t start_us, end_us;
    uint64_t log_us;              /* "timestamp": when the record is written (capture time),
                                     as Suricata; 0 = end_us */
    const char *state;            /* "new", "established", "closed" */
    const char *reason;           /* "timeout", "forced", "shutdown" */
    bool alerted;
    bool tcp;                     /* the tcp object below is written */
    uint8_t tcp_flags_ts, tcp_flags_tc;
    const char *tcp_state;        /* NULL = left out */
};

/* A decoder/stream/defrag/app-layer anomaly (event_type "anomaly"). */
struct osprey_eve_anomaly {
    uint64_t ts_us, flow_id, pcap_cnt; /* 0 = left out (ts_us always written) */
    const char *src_ip, *dest_ip;      /* NULL = the packet had no usable IP header */
    int src_port, dest_port;
    const char *proto;                 /* NULL = left out */
    const char *type;                  /* "decode", "stream", "applayer" */
    const char *event;                 /* "decoder.ipv4.trunc_pkt", "stream.gap" … */
    const char *app_proto, *layer;     /* applayer only; NULL = left out */
};

/* A tagged packet (event_type "packet", Suricata's alert.tagged-packets): the 5-tuple and the
 * whole captured frame in base64 with its link type. */
struct osprey_eve_packet {
    uint64_t ts_us, flow_id, pcap_cnt; /* 0 = left out (ts_us always written) */
    const char *src_ip, *dest_ip;      /* NULL = no IP header */
    int src_port, dest_port;
    const char *proto;                 /* NULL = left out */
    const uint8_t *frame;
    uint32_t caplen;
    int linktype;
};

/* One counter of a stats record; dotted names nest ("decoder.pkts" → decoder{pkts}). Names
 * sharing a prefix must be adjacent to keep Suricata's grouping order. */
struct osprey_stat {
    const char *name;
    uint64_t value;
};

char *osprey_eve_alert_line(const struct osprey_eve_alert *a);
char *osprey_eve_flow_line(const struct osprey_eve_flow *f);
char *osprey_eve_anomaly_line(const struct osprey_eve_anomaly *a);
char *osprey_eve_packet_line(const struct osprey_eve_packet *p);
char *osprey_eve_tx_line(const struct osprey_eve_tx *t);

/* A file a flow carried (event_type fileinfo; the file-store sink writes its bytes). The
 * tuple is the file's direction: its sender is src (the server for a download). */
struct osprey_eve_file {
    uint64_t ts_us, flow_id, pcap_cnt;  /* pcap_cnt 0 = left out */
    const char *src_ip, *dest_ip;
    int src_port, dest_port;
    const char *proto;
    const char *community_id;           /* NULL = left out */
    const struct osprey_eve_app *app;   /* the flow's protocol object ("http": {…}) or NULL */
    const char *app_proto;              /* NULL = left out */
    const uint8_t *filename;
    uint32_t filename_len;
    const char *magic;                  /* NULL = left out */
    const char *state;                  /* "CLOSED", "TRUNCATED", "OPEN" */
    bool gaps;
    const char *md5, *sha1, *sha256;    /* hex; NULL = left out */
    bool stored;                        /* the file-store sink writes it */
    uint32_t file_id;                   /* with stored */
    uint64_t size;
    uint32_t tx_id;
    /* for the file-store sink: a filestore rule asked for it, and its bytes (NULL: not
     * kept, the memcap shed them) */
    bool store;
    const uint8_t *data;
    uint64_t data_len;
};
/* An alert's "files" array (n records) into the open object w, as the alert record writes it
 * (the engine keeps a deferred alert's transaction this way). n 0: nothing. */
void osprey_eve_files_write(struct osprey_jw *w, const struct osprey_eve_file *f, uint32_t n);

char *osprey_eve_file_line(const struct osprey_eve_file *f);
/* ts_us: when; uptime_s: seconds since start. */
char *osprey_eve_stats_line(uint64_t ts_us, uint64_t uptime_s, const struct osprey_stat *st,
                            size_t n);

/* fast.log: Suricata's one-line alert format. classification NULL/"" prints "(null)" like
 * Suricata; ICMP prints type and code where the ports go; other ports -1 print as 0. */
char *osprey_fast_line(const struct osprey_eve_alert *a);

/* Write one alert as one EVE JSON line to a stdio stream. 0, or -1 on a write or memory
 * error. (Kept for tools; the engine writes through osprey_log_file.) */
int osprey_eve_alert_write(FILE *out, const struct osprey_eve_alert *a);

/* Community ID v1 ("1:base64(sha1)") of a 5-tuple; addresses are 4 or 16 raw bytes in network
 * order, ports host order (ICMP: type and code, as the spec says). out: at least 40 bytes. */
void osprey_community_id(uint16_t seed, const uint8_t *src, const uint8_t *dst, size_t alen,
                         uint8_t proto, uint16_t sport, uint16_t dport, char *out, size_t len);

#endif
