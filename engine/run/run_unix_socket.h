/* run_unix_socket.h — `osprey --unix-socket[=PATH]`: the rules loaded once, capture files
 * analysed as the control socket's pcap-file commands queue them (Suricata's unix-socket
 * run mode). */
#ifndef OSPREY_RUN_UNIX_SOCKET_H
#define OSPREY_RUN_UNIX_SOCKET_H

#include "options.h"
#include "osprey_config.h"

int osprey_run_unix_socket(const struct osprey_options *opts, const struct osprey_config *cfg);

#endif
