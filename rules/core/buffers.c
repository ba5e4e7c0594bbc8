/* buffers.c — buffer names (see buffers.h). */
#include "buffers.h"

#include "osprey_parsers.h"
#include "osprey_rules.h"

static const char *const BUFFER_NAMES[] = {
#define RULE_BUFFER_NAME(id, name) name,
    RULE_BUFFERS(RULE_BUFFER_NAME)
#undef RULE_BUFFER_NAME
};

const char *osprey_rules_buffer_name(unsigned buffer)
{
    return buffer < BUF_COUNT ? BUFFER_NAMES[buffer] : "?";
}

/* The buffers detection can inspect: the packet/stream, its headers, and every buffer a
 * parser registers under that name (parsers/include/osprey_parsers.h; rules/compile/app.c
 * finds its parser buffer and event the same way): a protocol's buffers become inspectable
 * when it registers them, with no change here. */
bool buffer_inspectable(unsigned buffer)
{
    switch (buffer) {
    case BUF_PKT: case BUF_RAW: case BUF_BASE64:
    case BUF_IPV4_HDR: case BUF_IPV6_HDR: case BUF_TCP_HDR: case BUF_UDP_HDR:
    case BUF_ICMPV4_HDR: case BUF_ICMPV6_HDR: /* packet headers (compile/pkt_units.c) */
        return true;
    default:
        return buffer_parsed(buffer);
    }
}

bool buffer_parsed(unsigned buffer)
{
    return buffer < BUF_COUNT && osprey_buffer_find(BUFFER_NAMES[buffer], 0) >= 0;
}
