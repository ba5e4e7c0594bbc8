/* fuzz_snmp.c — libFuzzer target: the SNMP parser on any bytes of both directions, TCP
 * segments or UDP datagrams (the shared BER protocols' driver, ber/ber_fuzz.h). Run it with
 * parsers/snmp/fuzz/run.sh. */
#include "ber_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ber_fuzz_one("snmp", data, size);
}
