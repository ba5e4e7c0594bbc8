/* test_policy.c — overlap policy names (ours and Suricata's OS names) and the longest-prefix
 * host lookup. */
#include <string.h>

#include "mon_policy.h"
#include "unit.h"

static void test_names(void)
{
    static const struct {
        const char *name;
        enum mon_overlap_policy want;
    } names[] = {
        {"first", MON_POLICY_FIRST},     {"last", MON_POLICY_LAST},
        {"bsd", MON_POLICY_BSD},         {"linux", MON_POLICY_LINUX},
        {"windows", MON_POLICY_WINDOWS}, {"solaris", MON_POLICY_SOLARIS},
        /* Suricata's host-os-policy names, mapped as its defrag maps them */
        {"hpux10", MON_POLICY_BSD},      {"irix", MON_POLICY_BSD},
        {"bsd-right", MON_POLICY_BSD},   {"old-linux", MON_POLICY_LINUX},
        {"old-solaris", MON_POLICY_FIRST}, {"hpux11", MON_POLICY_FIRST},
        {"macos", MON_POLICY_FIRST},     {"vista", MON_POLICY_WINDOWS},
        {"windows2k3", MON_POLICY_WINDOWS},
        {"Linux", MON_POLICY_LINUX},     {"WINDOWS", MON_POLICY_WINDOWS},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        enum mon_overlap_policy p = MON_POLICY__COUNT;
        CHECK_EQ_U(mon_policy_from_name(names[i].name, &p), 0);
        CHECK_EQ_U(p, names[i].want);
    }
    static const char *const bad[] = {"", "bsdx", "linux ", "osx", "default", "win"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        enum mon_overlap_policy p = MON_POLICY_LAST;
        CHECK(mon_policy_from_name(bad[i], &p) < 0);
        CHECK_EQ_U(p, MON_POLICY_LAST); /* untouched on failure */
    }
    enum mon_overlap_policy p;
    CHECK(mon_policy_from_name(NULL, &p) < 0);
    for (int i = 0; i < MON_POLICY__COUNT; i++) {
        CHECK(mon_policy_from_name(mon_policy_name((enum mon_overlap_policy)i), &p) == 0);
        CHECK_EQ_U(p, i);
    }
    CHECK(strcmp(mon_policy_name(MON_POLICY_SOLARIS), "solaris") == 0);
    CHECK(strcmp(mon_policy_name(MON_POLICY__COUNT), "unknown") == 0);
}

static struct mon_addr v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    struct mon_addr x;
    memset(&x, 0, sizeof x);
    x.b[0] = a;
    x.b[1] = b;
    x.b[2] = c;
    x.b[3] = d;
    return x;
}

static struct mon_host_policy entry(uint8_t ipver, struct mon_addr net, uint8_t prefix,
                                    enum mon_overlap_policy p)
{
    struct mon_host_policy e;
    memset(&e, 0, sizeof e);
    e.ipver = ipver;
    e.net = net;
    e.prefix = prefix;
    e.policy = (uint8_t)p;
    return e;
}

static void test_lookup(void)
{
    struct mon_addr v6net, v6host;
    memset(&v6net, 0, sizeof v6net);
    v6net.b[0] = 0x20;
    v6net.b[1] = 0x01;
    v6net.b[2] = 0x0d;
    v6net.b[3] = 0xb8;
    v6host = v6net;
    v6host.b[15] = 1;

    struct mon_host_policy e[] = {
        entry(4, v4(10, 0, 0, 0), 8, MON_POLICY_WINDOWS),
        entry(4, v4(10, 1, 0, 0), 16, MON_POLICY_LINUX),
        entry(4, v4(10, 1, 16, 0), 20, MON_POLICY_SOLARIS),  /* 10.1.16.0 - 10.1.31.255 */
        entry(4, v4(10, 1, 2, 3), 32, MON_POLICY_LAST),
        entry(4, v4(10, 1, 2, 3), 32, MON_POLICY_FIRST),     /* same prefix: first listed wins */
        entry(6, v6net, 32, MON_POLICY_LINUX),
        entry(6, v6host, 128, MON_POLICY_WINDOWS),
        entry(4, v4(172, 16, 0, 0), 40, MON_POLICY_FIRST),   /* too long: as /32 */
    };
    struct mon_policy_table t = {.dflt = MON_POLICY_BSD, .n = sizeof e / sizeof e[0],
                                 .entries = e};
    struct mon_addr a;
    a = v4(10, 9, 9, 9);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_WINDOWS);
    a = v4(10, 1, 9, 9);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_LINUX);
    a = v4(10, 1, 16, 1);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_SOLARIS);
    a = v4(10, 1, 31, 255);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_SOLARIS);
    a = v4(10, 1, 32, 0);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_LINUX);
    a = v4(10, 1, 15, 255);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_LINUX);
    a = v4(10, 1, 2, 3);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_LAST);
    a = v4(11, 0, 0, 1);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_BSD);
    a = v4(172, 16, 0, 0);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_FIRST);
    a = v4(172, 16, 0, 1);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_BSD);

    /* IPv6 entries apply to IPv6 only, and the other way round */
    CHECK_EQ_U(mon_policy_lookup(&t, 6, &v6host), MON_POLICY_WINDOWS);
    a = v6host;
    a.b[15] = 2;
    CHECK_EQ_U(mon_policy_lookup(&t, 6, &a), MON_POLICY_LINUX);
    a.b[3] = 0xb9;
    CHECK_EQ_U(mon_policy_lookup(&t, 6, &a), MON_POLICY_BSD);
    a = v4(10, 0, 0, 1);
    CHECK_EQ_U(mon_policy_lookup(&t, 6, &a), MON_POLICY_BSD);
    a = v4(0x20, 0x01, 0x0d, 0xb8);
    CHECK_EQ_U(mon_policy_lookup(&t, 4, &a), MON_POLICY_BSD);

    /* /0 matches everything of its family; an empty table gives the default */
    struct mon_host_policy all = entry(4, v4(0, 0, 0, 0), 0, MON_POLICY_SOLARIS);
    struct mon_policy_table t0 = {.dflt = MON_POLICY_LINUX, .n = 1, .entries = &all};
    a = v4(200, 1, 2, 3);
    CHECK_EQ_U(mon_policy_lookup(&t0, 4, &a), MON_POLICY_SOLARIS);
    CHECK_EQ_U(mon_policy_lookup(&t0, 6, &v6host), MON_POLICY_LINUX);
    struct mon_policy_table empty = {.dflt = MON_POLICY_WINDOWS};
    CHECK_EQ_U(mon_policy_lookup(&empty, 4, &a), MON_POLICY_WINDOWS);
}

int main(void)
{
    test_names();
    test_lookup();
    return unit_report("test_policy");
}
