/* opt_dnp3.c — Suricata's DNP3 keywords (dnp3_data / dnp3.data is a sticky buffer:
 * opt_buffers.c), comparisons on the DNP3 parser's fields of the application fragment in
 * force (either side's, det_unit_field):
 *
 *   dnp3_func:<N>|<name>          the function code (0-255, or read, write, response …)
 *   dnp3_ind:<flag>[,<flag>…]     a response's internal indications: any of them set
 *                                 (all_stations, device_restart, need_time …)
 *   dnp3_obj:<group>,<variation>  an object header of that group and variation */
#include <ctype.h>
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

static const char *trim(const char *s, size_t *n)
{
    while (isspace((unsigned char)*s))
        s++;
    *n = strlen(s);
    while (*n && isspace((unsigned char)s[*n - 1]))
        (*n)--;
    return s;
}

/* a value of field fld by its name (lowercase), as the parser registers them */
static bool named(const char *fld, const char *w, size_t n, int64_t *v)
{
    char name[40];
    int id = osprey_field_find(fld);
    if (id < 0 || n >= sizeof name)
        return false;
    for (size_t i = 0; i < n; i++)
        name[i] = (char)tolower((unsigned char)w[i]);
    name[n] = 0;
    return osprey_field_value((uint16_t)id, name, v);
}

static int parse_func(struct rule_ctx *c, char *val)
{
    size_t n;
    const char *w = trim(val, &n);
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    if (n && isalpha((unsigned char)*w)) {
        if (!named("dnp3.func", w, n, &cm->lo))
            return opt_error(c, w, "unknown function code '%.*s'", (int)n, w);
        cm->op = CMP_EQ;
        return 0;
    }
    return parse_cmp(c, w, n, 0, 255, 0, cm);
}

static int parse_ind(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    cm->op = CMP_ANY_BIT;
    for (char *tok = val; tok;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma = 0;
        size_t n;
        const char *w = trim(tok, &n);
        int64_t bit;
        if (!named("dnp3.ind", w, n, &bit))
            return opt_error(c, w, "unknown indicator '%.*s'", (int)n, w);
        cm->lo |= bit;
        tok = comma ? comma + 1 : NULL;
    }
    return 0;
}

static int parse_obj(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    char *comma = strchr(val, ',');
    if (!comma)
        return opt_error(c, val, "needs <group>,<variation>");
    *comma = 0;
    size_t gn, vn;
    const char *g = trim(val, &gn), *v = trim(comma + 1, &vn);
    int64_t group, variation;
    if (parse_num(c, g, gn, 0, 255, false, &group, "group") ||
        parse_num(c, v, vn, 0, 255, false, &variation, "variation"))
        return -1;
    cm->op = CMP_EQ;
    cm->lo = group << 8 | variation; /* the parser's dnp3.obj */
    return 0;
}

#define DNP3_FIELD(name, parse) \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_DNP3_DATA, parse, true, NULL}
static const struct opt_def DEFS[] = {
    DNP3_FIELD("dnp3_func", parse_func),
    DNP3_FIELD("dnp3_ind", parse_ind),
    DNP3_FIELD("dnp3_obj", parse_obj),
};
#undef DNP3_FIELD
OPT_TABLE(opt_table_dnp3, DEFS);
