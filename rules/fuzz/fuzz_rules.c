/* fuzz_rules.c — libFuzzer target: any bytes as a rule file.
 *
 * Each input is parsed by a fresh ruleset (no state carried between inputs) with a few
 * variables, including a self-referencing and a malformed one, so variable resolution and its
 * errors are exercised too. The sanitizers do the checking: no crash, leak, overflow or
 * undefined behaviour on any input. Run it with rules/fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>

#include "osprey_rules.h"
#include "ruleset.h"
#include "vars.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct osprey_rules_options opts = {0};
    opts.keep_all = (size & 1) != 0; /* both the kept and the released-rule paths */
    struct osprey_ruleset *rs;
    if (osprey_ruleset_create(&rs, NULL, &opts) < 0)
        return 0;
    vars_set(&rs->vars, false, "HOME_NET", "[10.0.0.0/8,192.168.0.0/16,fe80::/10]", "fuzz", 1);
    vars_set(&rs->vars, false, "EXTERNAL_NET", "!$HOME_NET", "fuzz", 2);
    vars_set(&rs->vars, false, "LOOP", "[$LOOP,1.2.3.4]", "fuzz", 3);
    vars_set(&rs->vars, false, "BAD", "[1.2.3.4", "fuzz", 4);
    vars_set(&rs->vars, true, "HTTP_PORTS", "[80,8000:8080]", "fuzz", 5);
    vars_set(&rs->vars, true, "SHELLCODE_PORTS", "!$HTTP_PORTS", "fuzz", 6);
    osprey_ruleset_add_text(rs, "fuzz", (const char *)data, size);
    /* Walk what was kept so every AST pointer is read at least once. */
    size_t n = osprey_ruleset_count(rs);
    volatile uint64_t sink = 0;
    for (size_t i = 0; i < n; i++) {
        const struct osprey_rule *r = osprey_ruleset_rule(rs, i);
        sink += r->sid + r->nopts + (r->msg ? (uint8_t)r->msg[0] : 0);
        for (uint32_t k = 0; k < r->nopts; k++)
            sink += r->opts[k].kw + (r->opts[k].value ? (uint8_t)r->opts[k].value[0] : 0);
        if (r->src.addr)
            sink += r->src.addr->n + r->dst.port->n;
    }
    for (size_t i = 0; i < osprey_ruleset_diag_count(rs); i++)
        sink += (uint8_t)osprey_ruleset_diag(rs, i)->text[0];
    (void)sink;
    osprey_ruleset_free(rs);
    return 0;
}
