/* mpm_heads.c — stream fast patterns that only a stream's first bytes can serve, found by one
 * bounded block pass over those bytes instead of by the side's Hyperscan streams.
 *
 * Why: a stream rule's absolute content counts from the side's first byte (payload.c), so a
 * fast pattern with `depth` (`content:"|03|"; depth:1;`, TPKT; `|00 01|` within 8 bytes) can
 * only serve ending in the stream's first maxend bytes. A streaming database cannot carry that
 * bound for long (Hyperscan's max_offset in streaming mode took an eighth off, leaving the
 * bounded literals in every pass), and these patterns are the short ones: on bench-s the
 * one-byte |03| was reported 66,380 times over the server-to-client streams alone, and the
 * bounded patterns cost a sixth to a quarter of the streaming scan time (measured with the
 * databases Osprey builds for ET Open 2019, bench/README.md session 19). A pattern is a head
 * pattern when every rule taking it as its fast pattern bounds it so (det_mpm_bound keeps the
 * largest end; an application rule found via the stream widens it to anywhere) and it is not a
 * run (mpm_runs.c finds those). The streaming databases leave them out; each group has a block
 * database of them with their bounds (hdb), which scans the side's bytes from its start while
 * they have not yet passed head_reach, the largest bound: a pattern split across deliveries is
 * found when its last byte arrives, as the stream would find it (det_mpm_feed_heads, in mpm.c
 * beside the streaming pass it completes; this file only marks them, calling nothing back).
 * The stream matcher's block databases (arrival, orphan) keep them. */
#include <stdlib.h>

#include "detect_int.h"

int det_mpm_find_heads(struct det_mpm *m)
{
    m->nheads = m->head_reach = 0;
    if (m->n == 0 || m->kind != DK_STREAM || !m->streaming || !m->grouped)
        return 0;
    if (!(m->is_head = calloc(m->n, sizeof *m->is_head)))
        return -1;
    for (uint32_t i = 0; i < m->n; i++) {
        uint32_t end = m->maxend[i]; /* 0: no rule bounds it (an application rule's via) */
        m->is_head[i] = end && end <= DET_MPM_BOUND_MAX && !(m->is_run && m->is_run[i]);
        if (m->is_head[i]) {
            m->nheads++;
            if (end > m->head_reach)
                m->head_reach = end;
        }
    }
    return 0;
}
