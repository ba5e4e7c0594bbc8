/* test_proto_modbus.c — Modbus/TCP's descriptor, bytes in, fields out: a read request and its
 * response split anywhere (function, unit, table, every address read), a single write and its
 * echo (value), an exception, a response without its request, a request never answered
 * (reported at the end), the categories, the EVE object, error flags, an ADU length no
 * frame can have, the pending table's limit, the probe. */
#include <stdlib.h>

#include "modbus_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

static int64_t fld(struct ph *h, const char *name, uint32_t i)
{
    int64_t v;
    return ph_field(h, name, i, &v) ? v : -1;
}

/* an ADU: transaction id, unit, function, the PDU's data */
static size_t adu(uint8_t *out, uint16_t tid, uint8_t unit, uint8_t fc, const uint8_t *d,
                  size_t n)
{
    out[0] = (uint8_t)(tid >> 8), out[1] = (uint8_t)tid;
    out[2] = out[3] = 0;
    out[4] = (uint8_t)((n + 2) >> 8), out[5] = (uint8_t)(n + 2);
    out[6] = unit, out[7] = fc;
    memcpy(out + 8, d, n);
    return n + 8;
}

static void read_coils(void)
{
    struct ph h;
    ph_init(&h, "modbus", 6, 40000, 502);
    uint8_t a[64];
    size_t n = adu(a, 1, 9, 1, (const uint8_t *)"\x00\x64\x00\x03", 4); /* 100, 3 coils */
    for (size_t i = 0; i < n; i++) /* a byte at a time */
        ph_feed(&h, 0, a + i, 1);
    CHECK(h.txs == 0);
    CHECK(fld(&h, "modbus.function", 0) == 1 && fld(&h, "modbus.unit", 0) == 9);
    CHECK(fld(&h, "modbus.read_table", 0) == MB_T_COILS);
    CHECK(fld(&h, "modbus.write_table", 0) == -1);
    CHECK(fld(&h, "modbus.read_address", 0) == 100 && fld(&h, "modbus.read_address", 2) == 102);
    CHECK(fld(&h, "modbus.read_address", 3) == -1);
    CHECK(fld(&h, "modbus.category", 0) == MB_CAT_ASSIGNED);
    CHECK(ph_buf(&h, "modbus.request", 0, 0, &(uint32_t){0}));
    n = adu(a, 1, 9, 1, (const uint8_t *)"\x01\x05", 2);
    ph_feed(&h, 1, a, n);
    CHECK(h.txs == 1);
    char *s = ph_eve(&h);
    CHECK(s && !strcmp(s, "{\"modbus\":{\"id\":0,\"request\":{\"transaction_id\":1,"
                          "\"protocol_id\":0,\"unit_id\":9,\"function_raw\":1,"
                          "\"function_code\":\"RdCoils\",\"category\":\"PUBLIC_ASSIGNED\","
                          "\"access_type\":\"READ | COILS\",\"error_flags\":\"NONE\","
                          "\"read\":{\"address\":100,\"quantity\":3}},\"response\":{"
                          "\"transaction_id\":1,\"protocol_id\":0,\"unit_id\":9,"
                          "\"function_raw\":1,\"function_code\":\"RdCoils\","
                          "\"category\":\"PUBLIC_ASSIGNED\",\"error_flags\":\"NONE\","
                          "\"read\":{\"data\":\"05\"}}}}"));
    free(s);
    CHECK(ph_count(&h, "modbus_tx") == 1);
    ph_free(&h);
}

static void writes_and_exceptions(void)
{
    struct ph h;
    ph_init(&h, "modbus", 6, 40000, 502);
    uint8_t a[64], b[128];
    /* two requests in one segment: write register 500 = 300, write coil 7 ON */
    size_t n = adu(b, 2, 1, 6, (const uint8_t *)"\x01\xf4\x01\x2c", 4);
    n += adu(b + n, 3, 1, 5, (const uint8_t *)"\x00\x07\xff\x00", 4);
    ph_feed(&h, 0, b, n);
    CHECK(fld(&h, "modbus.function", 0) == 5 && fld(&h, "modbus.write_value", 0) == (7 << 16 | 0xff00));
    CHECK(fld(&h, "modbus.write_table", 0) == MB_T_COILS);
    CHECK(fld(&h, "modbus.write_address", 0) == 7 && fld(&h, "modbus.write_address", 1) == -1);
    /* the second answered first, by an exception; the first's echo differs */
    n = adu(a, 3, 1, 0x85, (const uint8_t *)"\x02", 1);
    ph_feed(&h, 1, a, n);
    CHECK(h.txs == 1 && fld(&h, "modbus.exception", 0) == 2);
    CHECK(fld(&h, "modbus.function", 0) == 5); /* the request of that transaction */
    char *s = ph_eve(&h);
    CHECK(s && strstr(s, "\"exception\":{\"raw\":2,\"code\":\"IllegalDataAddr\"}"));
    free(s);
    n = adu(a, 2, 1, 6, (const uint8_t *)"\x01\xf4\x01\x2d", 4);
    ph_feed(&h, 1, a, n);
    CHECK(h.txs == 2 && fld(&h, "modbus.write_value", 0) == (500 << 16 | 300));
    s = ph_eve(&h);
    CHECK(s && strstr(s, "\"write\":{\"address\":500,\"data\":300}") &&
          strstr(s, "\"error_flags\":\"DATA_MISMATCH\""));
    free(s);
    /* a response nobody asked for: a transaction of its own, response only */
    n = adu(a, 77, 1, 3, (const uint8_t *)"\x02\x00\x01", 3);
    ph_feed(&h, 1, a, n);
    CHECK(h.txs == 3 && fld(&h, "modbus.function", 0) == -1);
    s = ph_eve(&h);
    CHECK(s && !strstr(s, "\"request\"") && strstr(s, "\"response\""));
    free(s);
    /* a diagnostic (subfunction 4), a user function, a reserved one, never answered */
    n = adu(a, 4, 1, 8, (const uint8_t *)"\x00\x04\x00\x00", 4);
    ph_feed(&h, 0, a, n);
    CHECK(fld(&h, "modbus.subfunction", 0) == 4);
    n = adu(a, 5, 1, 66, (const uint8_t *)"", 0);
    ph_feed(&h, 0, a, n);
    CHECK(fld(&h, "modbus.category", 0) == MB_CAT_USER);
    n = adu(a, 6, 1, 90, (const uint8_t *)"", 0);
    ph_feed(&h, 0, a, n);
    CHECK(fld(&h, "modbus.category", 0) == MB_CAT_RESERVED);
    n = adu(a, 7, 1, 50, (const uint8_t *)"", 0);
    ph_feed(&h, 0, a, n);
    CHECK(fld(&h, "modbus.category", 0) == MB_CAT_UNASSIGNED);
    ph_end(&h);
    CHECK(h.txs == 7);
    /* a Write Multiple Registers: each register written with its address */
    n = adu(a, 9, 1, 16, (const uint8_t *)"\x02\x58\x00\x02\x04\x00\x0a\x00\xfa", 9);
    ph_feed(&h, 0, a, n);
    CHECK(fld(&h, "modbus.write_value", 0) == (600 << 16 | 10));
    CHECK(fld(&h, "modbus.write_value", 1) == (601 << 16 | 250));
    CHECK(fld(&h, "modbus.write_value", 2) == -1 && fld(&h, "modbus.write_address", 1) == 601);
    /* quantities out of range are flagged */
    n = adu(a, 8, 1, 3, (const uint8_t *)"\x00\x00\x00\x7e", 4); /* 126 registers */
    ph_feed(&h, 0, a, n);
    s = ph_eve(&h);
    CHECK(s && strstr(s, "\"error_flags\":\"DATA_VALUE\""));
    free(s);
    /* a length no ADU has: the side is given up */
    memcpy(a, "\x00\x09\x00\x00\x00\x01\x01", 7);
    ph_feed(&h, 0, a, 7);
    CHECK(ph_count(&h, "modbus_malformed") == 1 && h.pf.dead[0]);
    ph_free(&h);
}

static void pending_limit(void)
{
    struct ph h;
    ph_init(&h, "modbus", 6, 40000, 502);
    uint8_t a[16];
    for (uint32_t i = 0; i < MB_PENDING_MAX + 5; i++) {
        size_t n = adu(a, (uint16_t)i, 1, 3, (const uint8_t *)"\x00\x00\x00\x01", 4);
        ph_feed(&h, 0, a, n);
    }
    CHECK(ph_count(&h, "modbus_pending_shed") == 5);
    const struct modbus_state *st = h.pf.state;
    CHECK(st->npending == MB_PENDING_MAX && st->flooded);
    ph_free(&h);
}

static void probe(void)
{
    struct mon_flow f = {.proto = 6, .cport = 40000, .sport = 502};
    CHECK(modbus_probe((const uint8_t *)"\x00\x01\x00\x00\x00\x06\x01\x03", 8, &f) == DET_YES);
    CHECK(modbus_probe((const uint8_t *)"\x00\x01\x00\x00", 4, &f) == DET_NEED_MORE);
    CHECK(modbus_probe((const uint8_t *)"\x00\x01\x00\x01", 4, &f) == DET_NO);
    CHECK(modbus_probe((const uint8_t *)"\x00\x01\x00\x00\x01\x06\x01\x03", 8, &f) == DET_NO);
    f.sport = 503;
    CHECK(modbus_probe((const uint8_t *)"\x00\x01\x00\x00\x00\x06\x01\x03", 8, &f) == DET_NO);
}

int main(void)
{
    read_coils();
    writes_and_exceptions();
    pending_limit();
    probe();
    return unit_report("test_proto_modbus");
}
