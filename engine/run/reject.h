/* reject.h — the frames a reject rule sends in inline mode, built from the decoded packet it
 * matched; independent of how frames are captured or sent (AF_PACKET and DPDK use it).
 *
 * TCP: a RST to each end the rule names. Towards the source it comes "from" the destination
 * (addresses, ports and MACs swapped) with seq = the packet's ack, so the sender accepts it;
 * towards the destination it comes "from" the source with seq = the packet's seq (the packet
 * itself was dropped, so that is what the destination expects next).
 * Other protocols: ICMP (ICMPv6) destination unreachable, port unreachable, quoting the
 * packet's IP header and the start of its payload.
 * The link header (Ethernet, VLAN tags) is the packet's own, MACs swapped towards the source.
 * Tunnelled packets (more than one IP header) get no reject frame.
 */
#ifndef OSPREY_REJECT_H
#define OSPREY_REJECT_H

#include <stdbool.h>
#include <stdint.h>

#include "mon_packet.h"
#include "osprey_detect.h"

#define OSPREY_REJECT_FRAME_MAX 1600

struct osprey_reject_frame {
    bool to_src;     /* send back out of the interface the packet came in on */
    uint32_t len;
    uint8_t data[OSPREY_REJECT_FRAME_MAX];
};

/* Build the frames for a reject of kind towards `to`; returns how many (0, 1 or 2) were
 * written to out[]. 0 when the packet cannot be answered (not IP, tunnelled, TCP RST …). */
int osprey_reject_build(const struct mon_packet *p, enum osprey_reject kind,
                        enum osprey_reject_to to, struct osprey_reject_frame out[2]);

#endif
