/* test_cidr.c — cidr.c: addresses and blocks of both families, the prefix grammar (digits
 * only, in range), dotted netmasks only when asked, which part an error names, and input that
 * is not NUL-terminated. */
#include <string.h>

#include "osprey_cidr.h"
#include "unit.h"

static int parse(const char *s, unsigned flags, struct osprey_cidr *c)
{
    return osprey_cidr_parse(s, strlen(s), flags, c);
}

static void test_ipv4(void)
{
    struct osprey_cidr c;
    CHECK(parse("10.1.2.3", 0, &c) == 0);
    CHECK_EQ_U(c.ipver, 4);
    CHECK_EQ_U(c.prefix, 32);
    static const uint8_t a[16] = {10, 1, 2, 3};
    CHECK(!memcmp(c.addr, a, 16));
    CHECK(parse("10.1.2.3/8", 0, &c) == 0 && c.prefix == 8);
    CHECK(!memcmp(c.addr, a, 16)); /* host bits kept as written */
    CHECK(parse("0.0.0.0/0", 0, &c) == 0 && c.prefix == 0);
    CHECK(parse("1.2.3.4/32", 0, &c) == 0 && c.prefix == 32);
    CHECK(parse("1.2.3.4/008", 0, &c) == 0 && c.prefix == 8);
    CHECK(parse("1.2.3.4/33", 0, &c) == OSPREY_CIDR_EPREFIX && c.ipver == 4);
    /* inet_pton's four decimal parts: no short forms, no octal, no hex */
    CHECK(parse("1.2.3", 0, &c) == OSPREY_CIDR_EADDR);
    CHECK(parse("10", 0, &c) == OSPREY_CIDR_EADDR);
    CHECK(parse("0x0a.1.2.3", 0, &c) == OSPREY_CIDR_EADDR);
    CHECK(parse("256.1.2.3", 0, &c) == OSPREY_CIDR_EADDR);
    CHECK(parse("1.2.3.4 ", 0, &c) == OSPREY_CIDR_EADDR);
}

static void test_ipv6(void)
{
    struct osprey_cidr c;
    CHECK(parse("2001:db8::1", 0, &c) == 0 && c.ipver == 6 && c.prefix == 128);
    static const uint8_t a[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
    CHECK(!memcmp(c.addr, a, 16));
    CHECK(parse("2001:db8::/32", 0, &c) == 0 && c.prefix == 32);
    CHECK(parse("::/0", 0, &c) == 0 && c.prefix == 0);
    CHECK(parse("::1/128", 0, &c) == 0 && c.prefix == 128);
    CHECK(parse("::1/129", 0, &c) == OSPREY_CIDR_EPREFIX && c.ipver == 6);
    CHECK(parse("::ffff:1.2.3.4", 0, &c) == 0 && c.ipver == 6 && c.addr[15] == 4);
    CHECK(parse("2001:db8:::1", 0, &c) == OSPREY_CIDR_EADDR);
    CHECK(parse("[::1]", 0, &c) == OSPREY_CIDR_EADDR);
}

static void test_prefix_grammar(void)
{
    struct osprey_cidr c;
    CHECK(parse("1.2.3.4/", 0, &c) == OSPREY_CIDR_EPREFIX); /* empty */
    CHECK(parse("1.2.3.4/+8", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("1.2.3.4/-1", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("1.2.3.4/-0", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("1.2.3.4/ 8", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("1.2.3.4/8 ", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("1.2.3.4/0x8", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("1.2.3.4/99999999999999999999", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("1.2.3.4/8/8", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("/8", 0, &c) == OSPREY_CIDR_EADDR);
    CHECK(parse("", 0, &c) == OSPREY_CIDR_EADDR);
    CHECK(parse("x/8", 0, &c) == OSPREY_CIDR_EADDR); /* the address is checked first */
}

static void test_netmask(void)
{
    struct osprey_cidr c;
    /* only when asked */
    CHECK(parse("10.0.0.0/255.0.0.0", 0, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("10.0.0.0/255.0.0.0", OSPREY_CIDR_NETMASK, &c) == 0 && c.prefix == 8);
    CHECK(parse("10.0.0.0/255.255.255.255", OSPREY_CIDR_NETMASK, &c) == 0 && c.prefix == 32);
    CHECK(parse("10.0.0.0/0.0.0.0", OSPREY_CIDR_NETMASK, &c) == 0 && c.prefix == 0);
    CHECK(parse("10.0.0.0/255.255.128.0", OSPREY_CIDR_NETMASK, &c) == 0 && c.prefix == 17);
    CHECK(parse("10.0.0.0/255.0.255.0", OSPREY_CIDR_NETMASK, &c) == OSPREY_CIDR_EGAPS);
    CHECK(parse("10.0.0.0/0.0.0.255", OSPREY_CIDR_NETMASK, &c) == OSPREY_CIDR_EGAPS);
    CHECK(parse("10.0.0.0/255.0", OSPREY_CIDR_NETMASK, &c) == OSPREY_CIDR_ENETMASK);
    CHECK(parse("10.0.0.0/::ffff:255.0.0.0", OSPREY_CIDR_NETMASK, &c) == OSPREY_CIDR_ENETMASK);
    /* an IPv6 block takes a prefix length only */
    CHECK(parse("::/255.0.0.0", OSPREY_CIDR_NETMASK, &c) == OSPREY_CIDR_EPREFIX);
    CHECK(parse("10.0.0.0/8", OSPREY_CIDR_NETMASK, &c) == 0 && c.prefix == 8);
}

static void test_not_terminated(void)
{
    struct osprey_cidr c;
    const char *list = "10.0.0.0/8,192.168.0.0/16";
    CHECK(osprey_cidr_parse(list, 10, 0, &c) == 0 && c.prefix == 8 && c.addr[0] == 10);
    CHECK(osprey_cidr_parse(list + 11, 14, 0, &c) == 0 && c.prefix == 16 && c.addr[0] == 192);
    CHECK(osprey_cidr_parse(list, 9, 0, &c) == OSPREY_CIDR_EPREFIX); /* "10.0.0.0/" */
    CHECK(osprey_ip_parse(list, 8, &c) == 0 && c.prefix == 32);
    CHECK(osprey_ip_parse(list, 10, &c) == OSPREY_CIDR_EADDR); /* the address alone */
    char longer[80];
    memset(longer, '1', sizeof longer);
    CHECK(osprey_cidr_parse(longer, sizeof longer, 0, &c) == OSPREY_CIDR_EADDR);
}

int main(void)
{
    test_ipv4();
    test_ipv6();
    test_prefix_grammar();
    test_netmask();
    test_not_terminated();
    return unit_report("test_cidr");
}
