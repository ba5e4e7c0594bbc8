/* osprey_outputs.h — records leave the engine through here.
 *
 * outputs/ sees alert and flow records only (never libmon or rule internals): the engine
 * fills a struct osprey_eve_alert and asks for it to be written. EVE lines use Suricata's key
 * names and order, so existing EVE consumers read them unchanged.
 */
#ifndef OSPREY_OUTPUTS_H
#define OSPREY_OUTPUTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct osprey_eve_meta {
    const char *key, *value;
};

struct osprey_eve_alert {
    uint64_t ts_us;            /* packet time, microseconds since the epoch */
    uint64_t flow_id;          /* 0 = no flow: key left out */
    uint64_t pcap_cnt;         /* 0 = not from a capture: key left out */
    const char *src_ip, *dest_ip; /* the alerting packet's */
    int src_port, dest_port;   /* -1 = the protocol has none: keys left out */
    const char *proto;         /* "TCP", "UDP", "ICMP", "IPv6-ICMP", or a number */
    const char *direction;     /* "to_server" / "to_client", NULL = left out */
    const char *action;        /* "allowed", "blocked" */
    uint32_t gid, sid, rev;
    const char *signature, *category;
    int severity;
    uint32_t nmeta;            /* grouped by key: {"key": ["v1", "v2"]} */
    const struct osprey_eve_meta *meta;
    const char *app_proto;     /* NULL = left out */
    bool has_flow;
    struct {
        uint64_t pkts_toserver, pkts_toclient, bytes_toserver, bytes_toclient;
        uint64_t start_us;
        const char *src_ip, *dest_ip; /* the flow's client and server */
        int src_port, dest_port;
    } flow;
};

/* Write one alert as one EVE JSON line. Returns 0, or -1 on a write or memory error. */
int osprey_eve_alert_write(FILE *out, const struct osprey_eve_alert *a);

/* "2024-01-31T12:00:00.123456+0000" (UTC) into buf (at least 32 bytes). */
void osprey_eve_timestamp(uint64_t ts_us, char *buf, size_t len);

#endif
