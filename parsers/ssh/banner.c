/* banner.c — the SSH identification strings, one per side (RFC 4253 §4.2): lines are read
 * up to LF (a CR before it dropped); the first one starting with "SSH-" is the banner, split
 * into its protocol version (ssh.proto) and software version (ssh.software); lines before it
 * (a server may send some) are skipped. A side's first line that is no banner as Suricata
 * reads one raises ssh.invalid_banner, a banner of SSH_BANNER_LONG bytes ssh.long_banner.
 * After its banner a side carries binary packets: read up to NEWKEYS (kex.c). The flow is one
 * transaction, reported once both sides are done (banners, and KEXINITs with HASSH) or at its
 * end, with what came. */
#include <stdlib.h>
#include <string.h>

#include "ssh_int.h"

bool ssh_banner_split(const uint8_t *l, uint32_t n, struct span *proto, struct span *software)
{
    *proto = *software = (struct span){0, 0, false};
    if (n < 4 || memcmp(l, "SSH-", 4))
        return false;
    uint32_t i = 4;
    while (i < n && l[i] != '-' && l[i] != ' ')
        i++;
    *proto = (struct span){4, i - 4, true};
    if (i >= n || l[i] != '-')
        return true; /* no software version */
    uint32_t s = ++i;
    while (i < n && l[i] != ' ')
        i++;
    *software = (struct span){s, i - s, true};
    return true;
}

static void report(struct pflow *pf, struct mon_flow *f, struct ssh_state *st)
{
    if (st->reported)
        return;
    st->reported = true;
    pflow_tx_done(pf, f);
}

void ssh_report_if_done(struct pflow *pf, struct mon_flow *f, struct ssh_state *st)
{
    if (st->side[0].done && st->side[1].done && st->side[0].finished && st->side[1].finished)
        report(pf, f, st);
}

/* Suricata's banner: "SSH-", a protocol version of at least one byte, '-' (the software
 * version may be empty) */
static bool banner_strict(const struct span *proto, const struct span *software)
{
    return proto->len && software->set;
}

static void long_banner(struct pflow *pf, struct mon_flow *f, int dir, struct ssh_side *side)
{
    if (!side->long_banner) {
        side->long_banner = true;
        pflow_anomaly(pf, f, dir, SSH_AE_LONG_BANNER);
    }
}

/* A whole line of direction dir (without LF) is in side->line. */
static void line_done(struct pflow *pf, struct mon_flow *f, int dir, struct ssh_state *st)
{
    struct ssh_side *side = &st->side[dir];
    if (side->line.len && side->line.p[side->line.len - 1] == '\r')
        side->line.len--;
    bool banner = ssh_banner_split(side->line.p, side->line.len, &side->proto, &side->software);
    if (!side->first_line) {
        side->first_line = true;
        if (!banner || !banner_strict(&side->proto, &side->software))
            pflow_anomaly(pf, f, dir, SSH_AE_INVALID_BANNER);
    }
    if (banner && side->line.len >= SSH_BANNER_LONG)
        long_banner(pf, f, dir, side);
    if (!banner) {
        if (dir == 0) /* only a server may send other lines first */
            pflow_count(pf, SSH_C_MALFORMED, 1);
        pbuf_reset(&side->line);
        return;
    }
    side->done = true;
    if (!st->hassh) /* the transaction needs no KEXINIT; the packets' headers are still read */
        side->finished = true;
    pflow_count(pf, SSH_C_BANNERS, 1);
    pflow_raise(pf, f, dir, dir == 0 ? SSH_EV_CLIENT_BANNER : SSH_EV_SERVER_BANNER);
    ssh_report_if_done(pf, f, st);
}

/* HASSH on this flow: configured (app-layer.protocols.ssh.hassh), or a rule reads it */
static bool hassh_wanted(const struct pflow *pf)
{
    const struct ssh_cfg *cfg = pflow_cfg(pf);
    for (unsigned r = SSH_ROW_HASSH_FIRST; r < SSH_ROW_HASSH_END; r++)
        if (pflow_wants(pf, r))
            return true;
    return cfg->hassh;
}

void ssh_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state) {
        if (!(pf->state = calloc(1, sizeof(struct ssh_state)))) {
            pf->dead[dir] = true;
            return;
        }
        ((struct ssh_state *)pf->state)->hassh = hassh_wanted(pf);
    }
    struct ssh_state *st = pf->state;
    struct ssh_side *side = &st->side[dir];
    while (n && !side->done) {
        const uint8_t *lf = memchr(d, '\n', n);
        size_t k = lf ? (size_t)(lf - d) : n;
        if (pbuf_add(&side->line, d, k, SSH_LINE_MAX) != k) { /* a line past the limit */
            if (side->line.len >= 4 && !memcmp(side->line.p, "SSH-", 4))
                long_banner(pf, f, dir, side);
            pflow_count(pf, SSH_C_MALFORMED, 1);
            pf->dead[dir] = true;
            return;
        }
        if (!lf)
            return;
        d += k + 1, n -= k + 1;
        line_done(pf, f, dir, st);
    }
    if (n && side->done && !side->records_done)
        ssh_packets(pf, f, dir, d, n);
}

void ssh_end(struct pflow *pf, struct mon_flow *f)
{
    struct ssh_state *st = pf->state;
    if (st && (st->side[0].done || st->side[1].done))
        report(pf, f, st);
}

void ssh_free(void *state)
{
    struct ssh_state *st = state;
    if (!st)
        return;
    for (int k = 0; k < 2; k++) {
        pbuf_free(&st->side[k].line);
        pbuf_free(&st->side[k].pkt);
        pbuf_free(&st->side[k].hassh_string);
    }
    free(st);
}
