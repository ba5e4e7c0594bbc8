/* fuzz_smtp.c — libFuzzer target: the SMTP parser (and the MIME reader under it, and the TLS
 * parser a STARTTLS hands the flow to) on any bytes of both directions: the mail driver
 * fz_mail (fuzz_harness.h). The sanitizers do the checking: no crash, leak, overflow or
 * undefined behaviour on any input. Run it with parsers/smtp/fuzz/run.sh. */
#include <stddef.h>

#include "fuzz_harness.h"
#include "smtp_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ph h; /* (big: not on the stack) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fz_mail(&h, "smtp", 25, offsetof(struct smtp_cfg, attachment_limit), 0, data,
                   size);
}
