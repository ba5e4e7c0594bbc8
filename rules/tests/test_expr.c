/* test_expr.c — address and port expressions: literals, lists, negation, variables, and the
 * range-set algebra under them. */
#include <string.h>

#include "expr.h"
#include "rangeset.h"
#include "unit.h"
#include "vars.h"

static struct vars vs;
static struct arena tmp;

/* Evaluate and render as "lo-hi lo-hi …" (IPv4 dotted when mapped, ports as numbers). */
static const char *eval(bool port, const char *s, char *buf, size_t len)
{
    struct rset set;
    struct expr_err err;
    if (expr_eval(&vs, &tmp, port, s, strlen(s), &set, &err) < 0) {
        snprintf(buf, len, "ERR %s: %s", err.key, err.msg);
        return buf;
    }
    size_t used = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < set.n && used < len; i++) {
        const struct osprey_ip_range *r = &set.r[i];
        if (port) {
            used += (size_t)snprintf(buf + used, len - used, "%s%llu-%llu", i ? " " : "",
                                     (unsigned long long)r->lo.lo, (unsigned long long)r->hi.lo);
        } else if (r->lo.hi == 0 && (r->lo.lo >> 32) == 0xffff && r->hi.hi == 0) {
            uint32_t a = (uint32_t)r->lo.lo, b = (uint32_t)r->hi.lo;
            used += (size_t)snprintf(buf + used, len - used, "%s%u.%u.%u.%u-%u.%u.%u.%u",
                                     i ? " " : "", a >> 24, a >> 16 & 255, a >> 8 & 255, a & 255,
                                     b >> 24, b >> 16 & 255, b >> 8 & 255, b & 255);
        } else {
            used += (size_t)snprintf(buf + used, len - used, "%s%016llx%016llx-%016llx%016llx",
                                     i ? " " : "", (unsigned long long)r->lo.hi,
                                     (unsigned long long)r->lo.lo, (unsigned long long)r->hi.hi,
                                     (unsigned long long)r->hi.lo);
        }
    }
    return buf;
}

#define EXPECT(port, expr, want)                                                         \
    do {                                                                                 \
        char b_[1024];                                                                   \
        const char *got_ = eval(port, expr, b_, sizeof b_);                              \
        if (strcmp(got_, want) == 0) {                                                   \
            unit_pass++;                                                                 \
        } else {                                                                         \
            unit_fail++;                                                                 \
            fprintf(stderr, "%s:%d: %s\n  got:  %s\n  want: %s\n", __FILE__, __LINE__, \
                    expr, got_, want);                                                   \
        }                                                                                \
    } while (0)

static void test_rangeset(void)
{
    struct rset a = {0}, b = {0}, out;
    u128 max = {UINT64_MAX, UINT64_MAX};
    rset_add(&tmp, &a, (u128){0, 5}, (u128){0, 9});
    rset_add(&tmp, &a, (u128){0, 1}, (u128){0, 4}); /* adjacent: merges */
    rset_add(&tmp, &a, (u128){0, 20}, max);
    rset_normalize(&a);
    CHECK_EQ_U(a.n, 2);
    CHECK_EQ_U(a.r[0].lo.lo, 1);
    CHECK_EQ_U(a.r[0].hi.lo, 9);
    rset_add(&tmp, &b, (u128){0, 0}, (u128){0, 2});
    rset_add(&tmp, &b, (u128){0, 30}, max);
    rset_normalize(&b);
    CHECK(rset_subtract(&tmp, &a, &b, &out) == 0);
    CHECK_EQ_U(out.n, 2); /* 3-9, 20-29 */
    CHECK_EQ_U(out.r[0].lo.lo, 3);
    CHECK_EQ_U(out.r[1].lo.lo, 20);
    CHECK_EQ_U(out.r[1].hi.lo, 29);
    CHECK(rset_union(&tmp, &a, &b, &out) == 0);
    CHECK_EQ_U(out.n, 2); /* 0-9, 20-max */
    CHECK_EQ_U(out.r[0].lo.lo, 0);
    CHECK(u128_is_max(out.r[1].hi));
    /* Subtracting everything leaves nothing; crossing the 64-bit boundary carries. */
    CHECK(rset_subtract(&tmp, &b, &out, &out) == 0);
    CHECK_EQ_U(out.n, 0);
    u128 x = u128_inc((u128){0, UINT64_MAX});
    CHECK(x.hi == 1 && x.lo == 0);
    x = u128_dec(x);
    CHECK(x.hi == 0 && x.lo == UINT64_MAX);
}

static void test_addresses(void)
{
    EXPECT(false, "1.2.3.4", "1.2.3.4-1.2.3.4");
    EXPECT(false, "10.1.2.3/8", "10.0.0.0-10.255.255.255");
    EXPECT(false, "192.168.1.0/255.255.255.0", "192.168.1.0-192.168.1.255");
    EXPECT(false, "1.1.1.1-1.1.1.9", "1.1.1.1-1.1.1.9");
    EXPECT(false, "0.0.0.0/0", "0.0.0.0-255.255.255.255");
    EXPECT(false, "[1.1.1.1, 1.1.1.2,1.1.1.3]", "1.1.1.1-1.1.1.3");
    EXPECT(false, "[10.0.0.0/8,!10.1.0.0/16]", "10.0.0.0-10.0.255.255 10.2.0.0-10.255.255.255");
    EXPECT(false, "[1.1.1.1,!$HOME_NET,[10.0.0.0/8,!10.1.0.0/16]]", "1.1.1.1-1.1.1.1");
    EXPECT(false, "[$HOME_NET,!192.168.0.0/16]",
           "10.0.0.0-10.255.255.255 172.16.0.0-172.31.255.255");
    EXPECT(false, "2001:db8::/32",
           "20010db8000000000000000000000000-20010db8ffffffffffffffffffffffff");
    EXPECT(false, "::1", "00000000000000000000000000000001-00000000000000000000000000000001");
    /* !x is everything else, IPv6 included. */
    EXPECT(false, "!0.0.0.0/0",
           "00000000000000000000000000000000-00000000000000000000fffeffffffff "
           "00000000000000000001000000000000-ffffffffffffffffffffffffffffffff");
    /* ::ffff:0:0/96 holds IPv4: outside it, IPv6 is kept by a negation. */
    EXPECT(false, "![1.0.0.0/8,2.0.0.0/8]",
           "00000000000000000000000000000000-00000000000000000000ffff00ffffff "
           "00000000000000000000ffff03000000-ffffffffffffffffffffffffffffffff");
    EXPECT(false, "$EXTERNAL_NET",
           "00000000000000000000000000000000-00000000000000000000ffff09ffffff "
           "11.0.0.0-172.15.255.255 172.32.0.0-192.167.255.255 "
           "00000000000000000000ffffc0a90000-ffffffffffffffffffffffffffffffff");
    /* Suricata's bracket-less top-level list. */
    EXPECT(false, "1.1.1.1,2.2.2.2", "1.1.1.1-1.1.1.1 2.2.2.2-2.2.2.2");
}

static void test_address_errors(void)
{
    EXPECT(false, "!any", "ERR contradictory address: address '!any' matches nothing");
    EXPECT(false, "[1.2.3.4,!1.2.3.4]",
           "ERR contradictory address: address '[1.2.3.4,!1.2.3.4]' matches nothing");
    EXPECT(false, "1.2.3.256", "ERR syntax error in address: invalid address '1.2.3.256'");
    EXPECT(false, "1.2.3.4/33",
           "ERR syntax error in address: invalid prefix length '/33' (0..32)");
    EXPECT(false, "1.2.3.4/255.0.255.0",
           "ERR syntax error in address: netmask '255.0.255.0' is not contiguous");
    EXPECT(false, "1.1.1.9-1.1.1.1",
           "ERR syntax error in address: address range '1.1.1.9-1.1.1.1' is empty or mixes "
           "IPv4 and IPv6");
    EXPECT(false, "[1.1.1.1", "ERR syntax error in address: missing ']'");
    EXPECT(false, "[]", "ERR syntax error in address: empty list");
    EXPECT(false, "[1.1.1.1 1.1.1.2]",
           "ERR syntax error in address: expected ',' or ']' in list");
    EXPECT(false, "!!1.1.1.1", "ERR syntax error in address: double negation");
    EXPECT(false, "$NOPE", "ERR unknown variable: unknown variable $NOPE");
    EXPECT(false, "$HTTP_PORTS",
           "ERR unknown variable: $HTTP_PORTS is a port variable, used as address");
    EXPECT(false, "$LOOP", "ERR invalid variable: variable $LOOP is invalid: variable $LOOP "
                           "refers to itself");
    EXPECT(false, "[$BROKEN,1.1.1.1]",
           "ERR invalid variable: variable $BROKEN is invalid: invalid address '300.1.1.1'");
    EXPECT(false, "$", "ERR syntax error in variable: '$' without a name");
}

static void test_ports(void)
{
    EXPECT(true, "80", "80-80");
    EXPECT(true, "any", "0-65535");
    EXPECT(true, "1024:", "1024-65535");
    EXPECT(true, ":1024", "0-1024");
    EXPECT(true, "[80,443,8000:8080]", "80-80 443-443 8000-8080");
    EXPECT(true, "!80", "0-79 81-65535");
    EXPECT(true, "[!1720,!1722,1024:]", "1024-1719 1721-1721 1723-65535");
    EXPECT(true, "$HTTP_PORTS", "80-80 8080-8080");
    EXPECT(true, "!5800,!445", "0-444 446-5799 5801-65535");
    EXPECT(true, "65536", "ERR syntax error in port: invalid port '65536' (ports are 0..65535)");
    EXPECT(true, "90:80", "ERR syntax error in port: port range '90:80' is reversed");
    EXPECT(true, ":", "ERR syntax error in port: invalid port range ':' (ports are 0..65535)");
    EXPECT(true, "!any", "ERR contradictory port: port '!any' matches nothing");
    EXPECT(true, "$HOME_NET",
           "ERR unknown variable: $HOME_NET is an address variable, used as port");
}

/* A rule naming a variable gets the variable's resolved set, the same one for every rule
 * (expr_ipset/expr_portset answer from it without evaluating again), errors included: a port
 * variable stays wrong as an address after it served as a port. A variable set again gives
 * its new value. */
static void test_variable_reuse(void)
{
    struct arena ast;
    arena_init(&ast);
    struct expr_err err;
    const struct osprey_ip_set *a = expr_ipset(&vs, &ast, &tmp, "$HOME_NET", 9, &err);
    CHECK(a && a->n == 3);
    memset(&err, 0x55, sizeof err);
    const struct osprey_ip_set *b = expr_ipset(&vs, &ast, &tmp, "$HOME_NET", 9, &err);
    CHECK(b == a && err.key[0] == 0 && !err.semantic);
    const struct osprey_port_set *p = expr_portset(&vs, &ast, &tmp, "$HTTP_PORTS", 11, &err);
    CHECK(p && p->n == 2 && p->r[0].lo == 80 && p->r[1].lo == 8080);
    CHECK(expr_portset(&vs, &ast, &tmp, "$HTTP_PORTS", 11, &err) == p);
    CHECK(expr_ipset(&vs, &ast, &tmp, "$HTTP_PORTS", 11, &err) == NULL);
    CHECK(strstr(err.msg, "port variable") != NULL);
    CHECK(expr_portset(&vs, &ast, &tmp, "$HOME_NET", 9, &err) == NULL);
    vars_set(&vs, false, "HOME_NET", "10.0.0.0/8", "t", 6);
    vars_set(&vs, true, "HTTP_PORTS", "81", "t", 7);
    const struct osprey_ip_set *c = expr_ipset(&vs, &ast, &tmp, "$HOME_NET", 9, &err);
    CHECK(c && c != a && c->n == 1);
    p = expr_portset(&vs, &ast, &tmp, "$HTTP_PORTS", 11, &err);
    CHECK(p && p->n == 1 && p->r[0].lo == 81 && p->r[0].hi == 81);
    arena_free(&ast);
}

int main(void)
{
    arena_init(&tmp);
    memset(&vs, 0, sizeof vs);
    arena_init(&vs.ar);
    vars_set(&vs, false, "HOME_NET", "[192.168.0.0/16,10.0.0.0/8,172.16.0.0/12]", "t", 1);
    vars_set(&vs, false, "EXTERNAL_NET", "!$HOME_NET", "t", 2);
    vars_set(&vs, false, "LOOP", "[1.1.1.1,$LOOP]", "t", 3);
    vars_set(&vs, false, "BROKEN", "300.1.1.1", "t", 4);
    vars_set(&vs, true, "HTTP_PORTS", "[80,8080]", "t", 5);
    test_rangeset();
    test_addresses();
    test_address_errors();
    test_ports();
    test_variable_reuse(); /* last: it sets HOME_NET and HTTP_PORTS anew */
    vars_free(&vs);
    arena_free(&tmp);
    return unit_report("test_expr");
}
