/* event_names.h — the engine events rules can name (decode-event, stream-event,
 * app-layer-event), by Suricata's names, and what each one is in libmon. */
#ifndef RULES_EVENT_NAMES_H
#define RULES_EVENT_NAMES_H

#include <stdbool.h>

#include "opt_args.h"

/* Fill out->code and out->ipver for the event `name` of kind (EV_*); false when Osprey never
 * raises an event of that name (the rule is then rejected: never loaded in part). */
bool event_lookup(int kind, const char *name, struct opt_event *out);

#endif
