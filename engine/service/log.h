/* log.h — Osprey's own messages (not records: those are outputs/): levels and the outputs of
 * suricata.yaml's `logging:` section — console (stderr), a file in the log directory, syslog.
 *
 * Until osprey_logging_open() every message goes to stderr. Any thread may log: each message is
 * written whole. A daemon turns the console off once its standard streams are detached.
 */
#ifndef OSPREY_LOG_H
#define OSPREY_LOG_H

#include <stdio.h>

#include "osprey_config.h"

enum osprey_log_level {
    OSPREY_LOG_ERROR,
    OSPREY_LOG_WARNING,
    OSPREY_LOG_NOTICE,
    OSPREY_LOG_INFO,
    OSPREY_LOG_DEBUG,
};

/* Set up the outputs from logging.* (file names relative to log_dir). Returns 0, or -1 after
 * printing why on stderr (bad level or facility, file not writable). */
int osprey_logging_open(const struct osprey_config *cfg, const char *log_dir);
/* One message (no trailing newline needed). */
void osprey_log(enum osprey_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Stop writing to stderr (a daemon whose stderr is now /dev/null). */
void osprey_logging_console_off(void);
/* Close and reopen the log file (SIGHUP, after logrotate moved it). 0, or -1 logged. */
int osprey_logging_reopen(void);
/* The log file's path, or NULL when file output is off. */
const char *osprey_logging_file_path(void);
void osprey_logging_close(void);

#endif
