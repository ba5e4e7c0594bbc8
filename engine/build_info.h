/* build_info.h — `osprey --build-info`: the build's version, features and paths, laid out as
 * `suricata --build-info` prints them so tools that read that (suricata-update) read Osprey's. */
#ifndef OSPREY_BUILD_INFO_H
#define OSPREY_BUILD_INFO_H

#include <stdio.h>

int osprey_build_info(FILE *out);

#endif
