/* alert_defer.h — a worker's alerts that wait for a packet of their direction.
 *
 * Under ack delivery (stream.inline: no, Suricata's IDS mode; mon_tcp_cfg.ack_delivery) a
 * direction's bytes are parsed at the packet that acknowledges them — a packet of the other
 * direction — and Suricata inspects that direction's transactions with the next packet of
 * the direction (or the flow's end packet of it). An alert on a TCP flow whose data direction
 * (osprey_alert.to_server) is not the direction of the packet being processed is therefore
 * kept here, copied, and given to the worker's emitter with the next packet of its direction
 * of that flow (its pcap_cnt, time, addresses), in the order found; what is left when the
 * flow ends goes with the flow's end packet. Nothing is kept on arrival delivery. The
 * transaction's EVE object is taken when the alert is kept (snap), since the parser may have
 * moved on to the next transaction (or freed it) by the time the alert goes.
 */
#ifndef OSPREY_ALERT_DEFER_H
#define OSPREY_ALERT_DEFER_H

#include <stdbool.h>

#include "mon.h"
#include "osprey_detect.h"

struct osprey_defer;
/* app: what snap gave when the alert was kept (NULL when it was not, or gave none) */
typedef void (*osprey_defer_emit_fn)(const struct osprey_alert *a, const char *app, void *arg);
/* The alert's application object now, malloc'd (NULL: none) */
typedef char *(*osprey_defer_snap_fn)(const struct osprey_alert *a, void *arg);

/* NULL when out of memory (then nothing is deferred). */
struct osprey_defer *osprey_defer_new(osprey_defer_emit_fn emit, osprey_defer_snap_fn snap,
                                      void *arg);
void osprey_defer_free(struct osprey_defer *d);

/* True when a is kept (it names a packet of the other direction of its TCP flow). */
bool osprey_defer_take(struct osprey_defer *d, const struct osprey_alert *a);

/* After packet p was processed: the alerts kept for its flow and direction, given now with p
 * as their packet. Cheap when nothing is kept. */
void osprey_defer_packet(struct osprey_defer *d, const struct mon_packet *p);

/* Flow f ends (end_pkt: its flow-end packet, client -> server): what is kept for it goes. */
void osprey_defer_flow_end(struct osprey_defer *d, struct mon_flow *f,
                           const struct mon_packet *end_pkt);

/* Everything kept goes now, with packet p (before the rules are swapped at a reload). */
void osprey_defer_flush(struct osprey_defer *d, const struct mon_packet *p);

#endif
