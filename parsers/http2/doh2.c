/* doh2.c — doh2, DNS over HTTP/2, as Suricata names such a flow (ALPROTO_DOH2): not a parser
 * of its own but what an HTTP/2 flow is once a stream carried a DNS message (doh.c classifies
 * it: pflow_classify). EVE's app_proto and app-layer-protocol then say doh2; HTTP/2's parser,
 * events, buffers and records go on. Legacy rules naming dns or http2 match it, and a rule
 * naming doh2 matches dns and http2 flows (Suricata's AppProtoEquals; firewall rules compare
 * exactly). A rule header `alert doh2` is HTTP/2's (parsed_by). */
#include "parsers_int.h"

const struct osprey_proto_def doh2_proto = {
    .name = "doh2",
    .flow_stat = "flow.doh2",
    .parsed_by = "http2",
    .equals = {"dns", "http2", NULL},
    .l4 = 6,
    .suricata_stats = true,
    .tx_counter = -1,
};
