/* fuzz_pop3.c — libFuzzer target: the POP3 parser (and the MIME reader under it, and the TLS
 * parser a STLS hands the flow to) on any bytes of both directions: the mail driver
 * fz_mail (fuzz_harness.h), with the file layer's hashes on the first byte's bit 1
 * and gaps on a record's direction bit 1. The sanitizers do the checking: no crash, leak,
 * overflow or undefined behaviour on any input. Run it with parsers/pop3/fuzz/run.sh. */
#include <stddef.h>

#include "fuzz_harness.h"
#include "pop3_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ph h; /* (big: not on the stack) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fz_mail(&h, "pop3", 110, offsetof(struct pop3_cfg, attachment_limit),
                   FZ_MAIL_FILES | FZ_MAIL_GAPS, data, size);
}
