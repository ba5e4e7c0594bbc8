/* app_out.h — osprey-trace --app: the application-layer parsers' events as JSON lines. */
#ifndef OSPREY_TRACE_APP_OUT_H
#define OSPREY_TRACE_APP_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "mon.h"
#include "osprey_parsers.h"

struct trace_app;

/* Before freeze: define the parsers' events. NULL on failure (a message is printed). */
struct trace_app *trace_app_define(struct mon_engine *eng, const struct osprey_parsers_cfg *cfg,
                                   FILE *out);
/* After the context exists: attach a worker and print every app event. */
int trace_app_attach(struct trace_app *a, struct mon_ctx *ctx);
/* The flow's app_proto ("http" …) or NULL. */
const char *trace_app_proto(struct trace_app *a, struct mon_ctx *ctx, const struct mon_flow *f);
/* The one it was first when it changed (SMTP's STARTTLS), or NULL. */
const char *trace_app_proto_orig(struct trace_app *a, struct mon_ctx *ctx,
                                 const struct mon_flow *f);
json_t *trace_app_stats_json(const struct trace_app *a);
void trace_app_free(struct trace_app *a);  /* after mon_ctx_destroy */

/* Bytes as a JSON-safe string: printable ASCII as is, '\' doubled, others "\xHH". */
json_t *trace_app_bytes(const uint8_t *d, uint32_t n);

#endif
