/* opt_websocket.c — Suricata 8's WebSocket integer keywords (websocket.payload is a sticky
 * buffer: opt_buffers.c), comparisons on the WebSocket parser's fields of the frame in force
 * (det_unit_field):
 *
 *   websocket.opcode:[!]NAME|<cmp>     continuation, text, binary, close, ping, pong, or 0-15
 *   websocket.mask:<cmp>               the masking key, big-endian (an unmasked frame has none)
 *   websocket.flags:<cmp>|&M=V|[!]fin,[!]comp   the first byte's four upper bits
 *
 * Names are the values the parser's fields register (osprey_field_value); the grammar is the
 * integer keywords' one (OPT_INT_PARSER, opt_int.c). */

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

/* the integer grammar (opt_int.c) */
OPT_INT_PARSER(parse_opcode, 255, INT_CMP | INT_NAMES, "opcode",
               " (continuation, text, binary, close, ping, pong, or a number)")
OPT_INT_PARSER(parse_mask, UINT32_MAX, INT_CMP, "value", "")
OPT_INT_PARSER(parse_flags, 255, INT_CMP | INT_FLAGS | INT_BITMASK, "flag", " (fin, comp)")

#define WS_FIELD(name, parse) \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_WEBSOCKET_PAYLOAD, parse, true, NULL}
static const struct opt_def DEFS[] = {
    WS_FIELD("websocket.opcode", parse_opcode),
    WS_FIELD("websocket.mask", parse_mask),
    WS_FIELD("websocket.flags", parse_flags),
};
#undef WS_FIELD
OPT_TABLE(opt_table_websocket, DEFS);
