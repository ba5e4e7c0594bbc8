/* registry.c — the option tables of every options file, and the name index. */
#include "registry.h"

#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "osprey_rules.h"

/* Order fixes the keyword ids (and the order of the check report's table). */
static const struct opt_table *const TABLES[] = {
    &opt_table_msg,      &opt_table_ids,        &opt_table_classtype, &opt_table_reference,
    &opt_table_metadata, &opt_table_target,     &opt_table_content,    &opt_table_pcre,      &opt_table_buffers,
    &opt_table_transforms, &opt_table_flow,     &opt_table_flowbits,  &opt_table_byte,
    &opt_table_compare,  &opt_table_ipflags,    &opt_table_threshold, &opt_table_events,
    &opt_table_tls,      &opt_table_file,       &opt_table_dce,       &opt_table_app, &opt_table_mqtt,
    &opt_table_smb,
    &opt_table_misc,     &opt_table_asn1,       &opt_table_geoip,      &opt_table_pktprop,
    &opt_table_hints,    &opt_table_absent,     &opt_table_entropy,    &opt_table_dataset,
    &opt_table_krb5,     &opt_table_ldap,       &opt_table_snmp,
    &opt_table_http2,
    &opt_table_nfs,
};
#define NTABLES (sizeof TABLES / sizeof TABLES[0])

size_t opt_def_count(void)
{
    size_t n = 0;
    for (size_t t = 0; t < NTABLES; t++)
        n += TABLES[t]->n;
    return n;
}

const char *opt_compile_check(const struct opt_def *def, const void *arg)
{
    return arg && def->check ? def->check(arg) : NULL;
}

const struct opt_def *opt_def_by_id(size_t kw)
{
    for (size_t t = 0; t < NTABLES; t++) {
        if (kw < TABLES[t]->n)
            return &TABLES[t]->defs[kw];
        kw -= TABLES[t]->n;
    }
    return NULL;
}

size_t osprey_rules_keyword_count(void)
{
    return opt_def_count();
}

const char *osprey_rules_keyword_name(size_t kw)
{
    const struct opt_def *d = opt_def_by_id(kw);
    return d ? d->name : NULL;
}

bool opt_def_implemented(const struct opt_def *d)
{
    if (d->implemented)
        return true;
    return (d->kind == OPT_STICKY || d->kind == OPT_HTTP_LEGACY) && buffer_parsed(d->buffer);
}

bool osprey_rules_keyword_implemented(size_t kw)
{
    const struct opt_def *d = opt_def_by_id(kw);
    return d && opt_def_implemented(d);
}

_Static_assert((int)D_S2 == (int)OSPREY_KW_SNORT2 && (int)D_S3 == (int)OSPREY_KW_SNORT3 &&
                   (int)D_SURI == (int)OSPREY_KW_SURICATA,
               "the public dialect bits are the registry's");

unsigned osprey_rules_keyword_dialects(size_t kw)
{
    const struct opt_def *d = opt_def_by_id(kw);
    return d ? d->dialects : 0;
}

const char *osprey_rules_keyword_kind(size_t kw)
{
    static const char *const KINDS[] = {
        [OPT_META] = "meta",         [OPT_MATCH] = "match",
        [OPT_PAYLOAD] = "payload",   [OPT_MODIFIER] = "modifier",
        [OPT_STICKY] = "sticky",     [OPT_HTTP_LEGACY] = "http-legacy",
        [OPT_TRANSFORM] = "transform",
    };
    const struct opt_def *d = opt_def_by_id(kw);
    if (d == NULL || d->kind >= sizeof KINDS / sizeof KINDS[0] || KINDS[d->kind] == NULL)
        return NULL;
    return KINDS[d->kind];
}

const char *osprey_rules_keyword_buffer(size_t kw)
{
    const struct opt_def *d = opt_def_by_id(kw);
    if (d == NULL || (d->kind != OPT_STICKY && d->kind != OPT_HTTP_LEGACY))
        return NULL;
    return osprey_rules_buffer_name(d->buffer);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

int opt_index_build(struct opt_index *ix)
{
    size_t n = opt_def_count();
    struct named *sorted = malloc(n * sizeof *sorted);
    ix->defs = malloc(n * sizeof *ix->defs);
    if (sorted == NULL || ix->defs == NULL) {
        free(sorted);
        free(ix->defs);
        ix->defs = NULL;
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        ix->defs[i] = opt_def_by_id(i);
        sorted[i] = (struct named){ix->defs[i]->name, (uint16_t)i};
    }
    qsort(sorted, n, sizeof *sorted, by_name);
    ix->sorted = sorted;
    ix->n = n;
    return 0;
}

void opt_index_free(struct opt_index *ix)
{
    free(ix->sorted);
    free(ix->defs);
    ix->sorted = NULL;
    ix->defs = NULL;
    ix->n = 0;
}

int opt_index_find(const struct opt_index *ix, const char *s, size_t n)
{
    const struct named *v = ix->sorted;
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *name = v[mid].name;
        int c = strncmp(name, s, n);
        if (c == 0 && name[n] != '\0')
            c = 1;
        if (c == 0)
            return v[mid].id;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}
