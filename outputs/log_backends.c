/* log_backends.c — the table of record transports beside files and Unix sockets
 * (log_backend.h): an output's `filetype` names one. A new transport is one row here. */
#include <string.h>

#include "log_backend.h"

extern const struct log_backend log_redis, log_kafka, log_syslog;

static const struct log_backend *const BACKENDS[] = {&log_redis, &log_kafka, &log_syslog, NULL};

const struct log_backend *log_backend_find(const char *filetype)
{
    for (size_t i = 0; filetype && BACKENDS[i]; i++)
        if (!strcmp(BACKENDS[i]->name, filetype))
            return BACKENDS[i];
    return NULL;
}
