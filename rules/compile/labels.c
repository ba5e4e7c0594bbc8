/* labels.c — the text of each UDE for `-T --dump-chains` and `--explain` (built only for
 * them: osprey_detect_opts.labels). See compiler.h. */
#include "compiler.h"

#include <stdio.h>

void label_opts(struct buf *b, const struct osprey_rule *r, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i <= to; i++) {
        const struct osprey_rule_option *o = &r->opts[i];
        if (i > from)
            buf_puts(b, " ");
        buf_puts(b, o->keyword);
        if (o->value) {
            buf_puts(b, ":");
            buf_puts(b, o->value);
        }
        buf_puts(b, ";");
    }
}

/* A header's node: `header stream tcp $HOME_NET any -> $EXTERNAL_NET 80`. */
void label_header(struct buf *b, const struct osprey_rule *r, uint16_t base)
{
    char hl[64];
    snprintf(hl, sizeof hl, "header %s %s ", det_base_name(base), r->proto);
    buf_puts(b, hl);
    buf_puts(b, r->src.addr_text ? r->src.addr_text : "any");
    buf_puts(b, " ");
    buf_puts(b, r->src.port_text ? r->src.port_text : "any");
    buf_puts(b, r->dir == OSPREY_DIR_BOTH ? " <> " : r->dir == OSPREY_DIR_TX ? " => " : " -> ");
    buf_puts(b, r->dst.addr_text ? r->dst.addr_text : "any");
    buf_puts(b, " ");
    buf_puts(b, r->dst.port_text ? r->dst.port_text : "any");
}

/* A fast pattern's node: `fast pattern "GET |20|" nocase`. */
void label_fp(struct buf *b, const uint8_t *p, uint32_t n, bool nocase)
{
    static const char hex[] = "0123456789abcdef";
    buf_puts(b, "fast pattern \"");
    for (uint32_t i = 0; i < n; i++) {
        char x[4] = {'|', hex[p[i] >> 4], hex[p[i] & 15], '|'};
        if (p[i] >= 32 && p[i] < 127 && p[i] != '"' && p[i] != '|')
            buf_put(b, &p[i], 1);
        else
            buf_put(b, x, 4);
    }
    buf_puts(b, nocase ? "\" nocase" : "\"");
}

/* A unit no option stands for: what it tests (its ops' dump, else its type's name). */
void label_unit(struct buf *b, const struct det_unit *u)
{
    if (u->ops->dump)
        u->ops->dump(b, u);
    else
        buf_puts(b, u->ops->name);
    buf_puts(b, " (rule header)");
}
