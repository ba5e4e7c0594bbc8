/* fuzz_imap.c — libFuzzer target: the IMAP parser (and the MIME reader under it, and the TLS
 * parser a STARTTLS hands the flow to) on any bytes of both directions: the mail driver
 * fz_mail (fuzz_harness.h), with the file layer's hashes on the first byte's bit 1 and gaps
 * before a record (imap_gap) on its direction byte's bit 1. The sanitizers do the checking:
 * no crash, leak, overflow or undefined behaviour on any input. Run it with
 * parsers/imap/fuzz/run.sh. */
#include <stddef.h>

#include "fuzz_harness.h"
#include "imap_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ph h; /* (big: not on the stack) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fz_mail(&h, "imap", 143, offsetof(struct imap_cfg, attachment_limit),
                   FZ_MAIL_FILES | FZ_MAIL_GAPS, data, size);
}
