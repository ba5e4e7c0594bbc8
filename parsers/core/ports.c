/* ports.c — detection-ports values as Suricata's yaml writes them ("53", "53, 1053",
 * "[53,1000:1010]"): ports and lo:hi runs, comma-separated, brackets optional. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"

static const char *port(const char *s, uint16_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return NULL;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (v > 65535)
        return NULL;
    *out = (uint16_t)v;
    while (isspace((unsigned char)*end))
        end++;
    return end;
}

int osprey_port_ranges_parse(const char *s, struct osprey_detect_ports *out)
{
    memset(out, 0, OSPREY_DETECT_PORT_RANGES * sizeof *out);
    while (isspace((unsigned char)*s))
        s++;
    bool bracket = *s == '[';
    if (bracket)
        s++;
    for (int n = 0;; n++) {
        uint16_t lo, hi;
        if (n == OSPREY_DETECT_PORT_RANGES || !(s = port(s, &lo)))
            return -1;
        hi = lo;
        if (*s == ':' && (!(s = port(s + 1, &hi)) || hi < lo))
            return -1;
        if (hi == 0)
            return -1; /* port 0 is no server's */
        out[n] = (struct osprey_detect_ports){lo ? lo : 1, hi};
        if (*s != ',')
            break;
        s++;
    }
    if (bracket && *s++ != ']')
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    return *s ? -1 : 0;
}
