/* list_protocols.h — `osprey --list-app-layer-protos` and `--list-buffers`: what the parsers'
 * registry holds, for users and for tools/protocol-table.py. */
#ifndef OSPREY_LIST_PROTOCOLS_H
#define OSPREY_LIST_PROTOCOLS_H

#include <stdbool.h>
#include <stdio.h>

/* The application-layer protocols in registry order. csv false: Suricata's form (a banner
 * line, then one name a line); csv true: `protocol,aliases,transport,eve_record` (aliases
 * joined with '|'; transport tcp, udp or tcp|udp; eve_record empty when it writes none).
 * Returns an exit status. */
int osprey_list_protocols(FILE *out, bool csv);

/* Every buffer rules can name, in registry order, as CSV:
 * `protocol,buffer,direction,event,multi` (direction to_server or to_client; multi yes/no).
 * The late copies of request buffers and the record-only buffers are left out. */
int osprey_list_buffers(FILE *out);

#endif
