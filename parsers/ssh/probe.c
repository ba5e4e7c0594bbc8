/* probe.c — is this SSH? Either side's first bytes are "SSH-" (the identification string,
 * RFC 4253 §4.2; the server usually speaks first). Suricata looks for the same pattern. */
#include "ssh_int.h"

enum probe_verdict ssh_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return probe_prefix(d, n, "SSH-", 4);
}
