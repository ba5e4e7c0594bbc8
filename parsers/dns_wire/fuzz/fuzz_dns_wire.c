/* fuzz_dns_wire.c — libFuzzer target: the shared DNS message decoder alone on any bytes (no
 * flow): the message decoded into one struct dns_wire kept across inputs' halves (a second
 * message over the first's copies), its records read back with their pointers, every element
 * of every name list, every record type's name. ASan checks the bounds. Run it with
 * parsers/dns_wire/fuzz/run.sh. */
#include <stdlib.h>
#include <string.h>

#include "dns_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void read_back(const struct dns_wire *s)
{
    struct dns_wire_info di;
    if (dns_wire_records(s, &di)) {
        for (uint32_t i = 0; i < di.nanswers; i++) {
            const struct dns_wire_rr *rr = &di.answers[i];
            sink += rr->name_len ? rr->name[rr->name_len - 1] : 0;
            sink += rr->rdata_len ? rr->rdata[rr->rdata_len - 1] : 0;
            sink += rr->has_soa && rr->soa.mname_len ? rr->soa.mname[rr->soa.mname_len - 1] : 0;
            const char *t = dns_wire_rrtype_name(rr->type);
            sink += t ? (uint8_t)t[0] : 0;
        }
        for (uint32_t i = 0; i < di.nqueries; i++)
            sink += di.queries[i].name_len ? di.queries[i].name[di.queries[i].name_len - 1] : 0;
    }
    for (int l = DNS_L_QUERIES; l <= DNS_L_ANSWER_RDATA; l++) {
        uint32_t len;
        const uint8_t *e;
        for (uint32_t i = 0; (e = dns_wire_list_at(s, (enum dns_wire_list)l, i, &len)); i++)
            sink += len ? e[len - 1] : 0;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct dns_wire *s = calloc(1, sizeof *s);
    if (!s)
        return 0;
    size_t half = size / 2;
    sink += dns_wire_decode(s, data, size);
    read_back(s);
    sink += dns_wire_decode(s, data + half, size - half);
    read_back(s);
    dns_wire_free(s);
    return 0;
}
