/* trace.c — osprey-trace --app's view of an event (osprey_event_trace), read from its
 * protocol's descriptor (proto_def.h: struct proto_trace), so the tool keeps no list of
 * protocols, events or buffers of its own. */
#include <string.h>

#include "proto_def.h"

int osprey_event_trace(uint16_t ev, const char *const **bufs, bool *fields)
{
    const char *name = osprey_event_name(ev);
    const struct osprey_proto_def *d = reg_proto(osprey_event_proto(ev));
    *bufs = NULL;
    *fields = true;
    if (!name || !d)
        return 0;
    if (!d->ntrace)
        return 2;
    for (size_t i = 0; i < d->ntrace; i++)
        if (!strcmp(d->trace[i].event, name)) {
            *bufs = d->trace[i].buffers;
            *fields = d->trace[i].fields;
            return 1;
        }
    return 0; /* a protocol with views shows the events it lists */
}

const struct osprey_trace_object *osprey_event_trace_object(uint16_t ev)
{
    const char *name = osprey_event_name(ev);
    const struct osprey_proto_def *d = reg_proto(osprey_event_proto(ev));
    for (size_t i = 0; name && d && i < d->ntrace; i++)
        if (!strcmp(d->trace[i].event, name))
            return d->trace[i].object;
    return NULL;
}
