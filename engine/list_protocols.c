/* list_protocols.c — see list_protocols.h. Everything comes from parsers/include/
 * osprey_parsers.h (the registry's rows): no protocol is named here. */
#include "list_protocols.h"

#include "options.h"
#include "osprey_parsers.h"

static const char *transport(uint8_t l4)
{
    return l4 == 6 ? "tcp" : l4 == 17 ? "udp" : "tcp|udp";
}

static int finish(FILE *out, const char *what)
{
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, "osprey: writing the %s list failed\n", what);
        return OSPREY_EXIT_FAILURE;
    }
    return OSPREY_EXIT_OK;
}

int osprey_list_protocols(FILE *out, bool csv)
{
    if (csv)
        fprintf(out, "protocol,aliases,transport,eve_record\n");
    else
        fprintf(out, "=========Supported App Layer Protocols=========\n");
    for (uint16_t p = OSPREY_APP_PROTO_FAILED + 1; p < osprey_app_proto_count(); p++) {
        const char *name = osprey_app_proto_name(p);
        if (!name)
            continue;
        if (!csv) {
            fprintf(out, "%s\n", name);
            continue;
        }
        fprintf(out, "%s,", name);
        const char *sep = "";
        for (unsigned i = 0; i < OSPREY_APP_PROTO_ALIASES; i++) {
            const char *a = osprey_app_proto_alias(p, i);
            if (a) {
                fprintf(out, "%s%s", sep, a);
                sep = "|";
            }
        }
        fprintf(out, ",%s,%s\n", transport(osprey_app_proto_l4(p)),
                osprey_app_proto_has_eve(p) ? osprey_app_proto_eve_name(p) : "");
    }
    return finish(out, "protocol");
}

int osprey_list_buffers(FILE *out)
{
    fprintf(out, "protocol,buffer,direction,event,multi\n");
    for (uint16_t b = 0; b < osprey_buffer_count(); b++) {
        if (osprey_buffer_is_late(b) || osprey_buffer_is_record(b))
            continue;
        const char *proto = osprey_app_proto_name(osprey_buffer_proto(b));
        const char *ev = osprey_event_name(osprey_buffer_event(b));
        fprintf(out, "%s,%s,%s,%s,%s\n", proto ? proto : "", osprey_buffer_name(b),
                osprey_buffer_dir(b) ? "to_client" : "to_server", ev ? ev : "",
                osprey_buffer_is_multi(b) ? "yes" : "no");
    }
    return finish(out, "buffer");
}
