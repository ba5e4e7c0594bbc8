/* eve.c — Modbus's EVE object, as Suricata 8 writes it: modbus{id, request{transaction_id,
 * protocol_id, unit_id, function_raw, function_code, category, access_type, error_flags, read
 * {address, quantity} / write {address, data} / diagnostic / mei, data}, response{… exception
 * {raw, code}}}, each side when the transaction has it. */
#include <stdio.h>

#include "modbus_int.h"
#include "osprey_json_writer.h"

static const char *const TABLE_NAMES[] = {"", "DISCRETES", "COILS", "INPUT", "HOLDING"};

/* Suricata's access flags: "READ | COILS", "WRITE | HOLDING", "READ | WRITE | HOLDING" */
static void access_type(struct osprey_jw *w, const struct modbus_pdu *p)
{
    if (!p->has_read && !p->has_write)
        return;
    char s[48];
    uint8_t t = p->has_read ? p->read_table : p->write_table;
    snprintf(s, sizeof s, "%s%s%s | %s", p->has_read ? "READ" : "",
             p->has_read && p->has_write ? " | " : "", p->has_write ? "WRITE" : "",
             t < 5 ? TABLE_NAMES[t] : "");
    osprey_jw_str(w, "access_type", s);
}

static void error_flags(struct osprey_jw *w, uint8_t e)
{
    static const struct { uint8_t bit; const char *name; } F[] = {
        {MB_ERR_DATA_LENGTH, "DATA_LENGTH"}, {MB_ERR_DATA_VALUE, "DATA_VALUE"},
        {MB_ERR_FUNC_CODE, "FUNC_CODE"}, {MB_ERR_EXC_CODE, "EXC_CODE"},
        {MB_ERR_MISMATCH, "DATA_MISMATCH"}, {MB_ERR_PROTO_ID, "PROTO_ID"}};
    char s[128] = "NONE";
    size_t at = 0;
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        if (e & F[i].bit)
            at += (size_t)snprintf(s + at, sizeof s - at, "%s%s", at ? " | " : "", F[i].name);
    osprey_jw_str(w, "error_flags", s);
}

static void data_hex(struct osprey_jw *w, const char *key, const uint8_t *d, size_t n)
{
    char hex[2 * MB_DATA_MAX + 1];
    phex(hex, d, n);
    osprey_jw_str(w, key, hex);
}

static void pdu(struct osprey_jw *w, const char *key, const struct modbus_pdu *p, int dir)
{
    osprey_jw_open(w, key);
    osprey_jw_int(w, "transaction_id", p->tid);
    osprey_jw_int(w, "protocol_id", p->pid);
    osprey_jw_int(w, "unit_id", p->unit);
    osprey_jw_int(w, "function_raw", p->raw_fc);
    osprey_jw_str(w, "function_code", modbus_function_name(p->fc));
    osprey_jw_str(w, "category", modbus_category_name(p->category));
    access_type(w, p);
    error_flags(w, p->errors);
    if (p->exception) {
        osprey_jw_open(w, "exception");
        osprey_jw_int(w, "raw", p->exc_code);
        osprey_jw_str(w, "code", modbus_exception_name(p->exc_code));
        osprey_jw_close(w);
    } else if (p->has_sub) {
        osprey_jw_open(w, "diagnostic");
        osprey_jw_int(w, "raw", p->sub);
        data_hex(w, "data", p->ndata > 2 ? p->data + 2 : p->data, p->ndata > 2 ? p->ndata - 2u : 0);
        osprey_jw_close(w);
    } else if (p->has_mei) {
        osprey_jw_open(w, "mei");
        osprey_jw_int(w, "raw", p->mei);
        data_hex(w, "data", p->ndata > 1 ? p->data + 1 : p->data, p->ndata > 1 ? p->ndata - 1u : 0);
        osprey_jw_close(w);
    } else if (dir == 0 && p->has_read && !p->has_write) {
        osprey_jw_open(w, "read");
        osprey_jw_int(w, "address", p->read_addr);
        osprey_jw_int(w, "quantity", p->read_qty);
        osprey_jw_close(w);
    } else if (p->has_write && p->has_value) {
        osprey_jw_open(w, "write");
        osprey_jw_int(w, "address", p->write_addr);
        osprey_jw_int(w, "data", p->value);
        osprey_jw_close(w);
    } else if (dir == 1 && p->has_bc && p->ndata >= 1) {
        osprey_jw_open(w, "read");
        data_hex(w, "data", p->data + 1, p->ndata - 1u);
        osprey_jw_close(w);
    } else if (p->ndata) {
        data_hex(w, "data", p->data, p->ndata);
    }
    osprey_jw_close(w);
}

bool modbus_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct modbus_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    const struct modbus_tx *tx = &st->cur;
    osprey_jw_open(w, "modbus");
    osprey_jw_int(w, "id", (int64_t)tx->id);
    if (tx->has_req)
        pdu(w, "request", &tx->req, 0);
    if (tx->has_resp)
        pdu(w, "response", &tx->resp, 1);
    osprey_jw_close(w);
    return true;
}
