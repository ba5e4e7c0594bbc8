/* fuzz_krb5.c — libFuzzer target: the Kerberos 5 parser on any bytes of both directions, TCP
 * segments or UDP datagrams (the shared BER protocols' driver, ber/ber_fuzz.h). Run it with
 * parsers/krb5/fuzz/run.sh. */
#include "ber_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return ber_fuzz_one("krb5", data, size);
}
