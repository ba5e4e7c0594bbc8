/* test_decode_next_layer.c — the decoders' next-layer table (stack/decode/next_layer.c): every
 * row a decoder may hand on to is filled (a row left out of the designated initializer would be
 * a NULL call on the first frame that needs it), and the rows are distinct decoders. */
#include "../decode/decode_internal.h"
#include "unit.h"

int main(void)
{
    for (int k = 0; k < DEC_NX__COUNT; k++) {
        CHECK(dec_next_layer[k] != NULL);
        for (int j = 0; j < k; j++)
            CHECK(dec_next_layer[j] != dec_next_layer[k]);
    }
    /* a sample of rows against their decoders: the enum and the table agree */
    CHECK(dec_next_layer[DEC_NX_ETHERNET] == dec_ethernet);
    CHECK(dec_next_layer[DEC_NX_IPV4] == dec_ipv4);
    CHECK(dec_next_layer[DEC_NX_IPV6] == dec_ipv6);
    CHECK(dec_next_layer[DEC_NX_TEREDO] == dec_teredo);
    CHECK(dec_next_layer[DEC_NX_ICMPV6] == dec_icmpv6);
    return unit_report("test_decode_next_layer");
}
