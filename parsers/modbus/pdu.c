/* pdu.c — one Modbus/TCP ADU decoded (Modbus Application Protocol V1.1b3 §6, Messaging on
 * TCP/IP V1.0b §3.1.3): the MBAP header, the function and what it accesses (tables, start
 * address and quantity, a single write's value, a diagnostic's subfunction, an encapsulated
 * interface's type), a response's exception, and the checks Suricata's events name: lengths a
 * function fixes, quantities and values out of the specification's ranges, exception codes
 * it does not define, a response that does not answer its request. */
#include <string.h>

#include "modbus_int.h"

/* the read functions' table and largest quantity */
static bool read_fn(uint8_t fc, uint8_t *table, uint16_t *max)
{
    switch (fc) {
    case 1: *table = MB_T_COILS, *max = 2000; return true;
    case 2: *table = MB_T_DISCRETES, *max = 2000; return true;
    case 3: *table = MB_T_HOLDING, *max = 125; return true;
    case 4: *table = MB_T_INPUT, *max = 125; return true;
    default: return false;
    }
}

static void request(struct modbus_pdu *p, const uint8_t *d, size_t n)
{
    uint16_t max;
    switch (p->fc) {
    case 1: case 2: case 3: case 4:
        if (n != 4) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        read_fn(p->fc, &p->read_table, &max);
        p->has_read = true;
        p->read_addr = rd_be16(d), p->read_qty = rd_be16(d + 2);
        if (p->read_qty < 1 || p->read_qty > max)
            p->errors |= MB_ERR_DATA_VALUE;
        break;
    case 5: case 6:
        if (n != 4) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_write = p->has_value = true;
        p->write_table = p->fc == 5 ? MB_T_COILS : MB_T_HOLDING;
        p->write_addr = rd_be16(d), p->write_qty = 1, p->value = rd_be16(d + 2);
        if (p->fc == 5 && p->value != 0 && p->value != 0xff00) /* ON or OFF only */
            p->errors |= MB_ERR_DATA_VALUE;
        break;
    case 8:
        if (n < 2) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_sub = true;
        p->sub = rd_be16(d);
        break;
    case 15: case 16: {
        if (n < 5) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_write = true;
        p->write_table = p->fc == 15 ? MB_T_COILS : MB_T_HOLDING;
        p->write_addr = rd_be16(d), p->write_qty = rd_be16(d + 2);
        p->has_bc = true, p->bc = d[4];
        uint16_t q = p->write_qty;
        size_t want = p->fc == 15 ? (q + 7u) / 8 : 2u * q;
        if (q < 1 || q > (p->fc == 15 ? 1968 : 123) || p->bc != want)
            p->errors |= MB_ERR_DATA_VALUE;
        if (n != 5u + p->bc)
            p->errors |= MB_ERR_DATA_LENGTH;
        break;
    }
    case 22:
        if (n != 6) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_write = true;
        p->write_table = MB_T_HOLDING;
        p->write_addr = rd_be16(d), p->write_qty = 1;
        break;
    case 23: {
        if (n < 9) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_read = p->has_write = true;
        p->read_table = p->write_table = MB_T_HOLDING;
        p->read_addr = rd_be16(d), p->read_qty = rd_be16(d + 2);
        p->write_addr = rd_be16(d + 4), p->write_qty = rd_be16(d + 6);
        p->has_bc = true, p->bc = d[8];
        if (p->read_qty < 1 || p->read_qty > 125 || p->write_qty < 1 || p->write_qty > 121 ||
            p->bc != 2u * p->write_qty)
            p->errors |= MB_ERR_DATA_VALUE;
        if (n != 9u + p->bc)
            p->errors |= MB_ERR_DATA_LENGTH;
        break;
    }
    case 7: case 11: case 12: case 17:
        if (n != 0)
            p->errors |= MB_ERR_DATA_LENGTH;
        break;
    case 43:
        if (n < 1) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_mei = true, p->mei = d[0];
        break;
    default:
        break;
    }
}

static void response(struct modbus_pdu *p, const uint8_t *d, size_t n,
                     const struct modbus_pdu *req)
{
    if (p->exception) {
        if (n != 1) {
            p->errors |= MB_ERR_DATA_LENGTH;
            return;
        }
        p->exc_code = d[0];
        if (!modbus_exception_known(d[0]))
            p->errors |= MB_ERR_EXC_CODE;
        return;
    }
    if (req && req->fc != p->fc) {
        p->errors |= MB_ERR_MISMATCH;
        return;
    }
    switch (p->fc) {
    case 1: case 2: case 3: case 4: case 23:
        if (n < 1 || n != 1u + d[0]) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_bc = true, p->bc = d[0];
        if (req && req->has_read) {
            size_t want = p->fc <= 2 ? (req->read_qty + 7u) / 8 : 2u * req->read_qty;
            if (p->bc != want)
                p->errors |= MB_ERR_MISMATCH;
        }
        break;
    case 5: case 6: case 15: case 16:
        if (n != 4) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_write = true;
        p->write_addr = rd_be16(d);
        if (p->fc <= 6)
            p->has_value = true, p->value = rd_be16(d + 2);
        else
            p->write_qty = rd_be16(d + 2);
        if (req && req->has_write &&
            (req->write_addr != p->write_addr ||
             (p->fc <= 6 ? req->value != p->value : req->write_qty != p->write_qty)))
            p->errors |= MB_ERR_MISMATCH; /* an echo that is not the request's */
        break;
    case 8:
        if (n < 2) {
            p->errors |= MB_ERR_DATA_LENGTH;
            break;
        }
        p->has_sub = true, p->sub = rd_be16(d);
        if (req && req->has_sub && req->sub != p->sub)
            p->errors |= MB_ERR_MISMATCH;
        break;
    case 43:
        if (n >= 1)
            p->has_mei = true, p->mei = d[0];
        break;
    default:
        break;
    }
}

void modbus_decode(struct modbus_pdu *p, int dir, const uint8_t *adu, size_t n,
                   const struct modbus_pdu *req)
{
    memset(p, 0, sizeof *p);
    if (n < MB_HDR_LEN + 1) {
        p->errors |= MB_ERR_DATA_LENGTH;
        return;
    }
    p->tid = rd_be16(adu), p->pid = rd_be16(adu + 2);
    p->unit = adu[6];
    p->raw_fc = adu[7];
    p->fc = adu[7] & 0x7f;
    p->exception = dir == 1 && (adu[7] & 0x80);
    if (p->pid != 0)
        p->errors |= MB_ERR_PROTO_ID;
    p->category = modbus_category(p->fc);
    const uint8_t *d = adu + MB_HDR_LEN + 1;
    size_t dn = n - (MB_HDR_LEN + 1);
    p->ndata = (uint16_t)(dn < MB_DATA_MAX ? dn : MB_DATA_MAX);
    memcpy(p->data, d, p->ndata);
    if (dir == 0) {
        /* 0 and the exception bit are no function (Application Protocol §5) */
        if (p->raw_fc == 0 || (p->raw_fc & 0x80))
            p->errors |= MB_ERR_FUNC_CODE;
        else
            request(p, d, dn);
    } else {
        if (p->fc == 0)
            p->errors |= MB_ERR_FUNC_CODE;
        else
            response(p, d, dn, req);
    }
}
