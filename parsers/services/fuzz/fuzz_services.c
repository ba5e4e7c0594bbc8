/* fuzz_services.c — libFuzzer target: the recognition-only services' probes (IRC, NetBIOS,
 * WINS, SSDP, MySQL, NNTP) on any first bytes, with the ports of the first input byte
 * (its bits pick each service's port or another). Run it with parsers/services/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "services_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const uint16_t PORTS[] = {6667, 137, 138, 42, 1900, 3306, 119, 80};
    enum probe_verdict (*const PROBES[])(const uint8_t *, size_t, const struct mon_flow *) = {
        irc_probe_client, irc_probe_server, netbios_ns_probe, netbios_dgm_probe, wins_probe,
        ssdp_probe, mysql_probe_server, nntp_probe_server};
    struct mon_flow f = {.proto = 17, .cport = 40000};
    f.sport = PORTS[data[0] & 7];
    for (size_t i = 0; i < sizeof PROBES / sizeof PROBES[0]; i++)
        fz_sink += (uint32_t)PROBES[i](data + 1, size - 1, &f);
    return 0;
}
