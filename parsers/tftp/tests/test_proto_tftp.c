/* test_proto_tftp.c — TFTP's descriptors, bytes in, buffers out: an RRQ on port 69 (one
 * transaction, its EVE object, its record buffers), what is no request; the transfer it
 * announces claimed as tftp-data by the flow from the server's new port back to the client's
 * port (a UDP expectation), its blocks a file (a retransmitted block skipped, the short last
 * block closing it, an OACK's blksize), an ERROR cutting it short; the probe. */
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "tftp_int.h"
#include "unit.h"

static const uint8_t RRQ[] = "\x00\x01rfc1350.txt\x00octet\x00";

/* the transfer's file as its transaction is reported (its files go after that) */
static struct pflow *xfer;
static struct osprey_file_info xfile;
static bool has_xfile;
static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p;
    ((struct ph *)arg)->txs++;
    if (xfer)
        has_xfile = pfile_at(xfer, -1, 0, &xfile);
}

/* the flow from the server's new port (5555) to the client's port `to` */
static struct pflow *claim(struct ph *h, struct pflow *pf, struct mon_flow *f, uint16_t to)
{
    *pf = (struct pflow){.w = &h->w, .anomaly = -1};
    h->w.tx_fn = on_tx;
    xfer = pf;
    has_xfile = false;
    *f = (struct mon_flow){.proto = 17, .ipver = 4, .cport = 5555, .sport = to};
    f->cli = h->f.srv; /* the server sends first, from its new port */
    f->srv = h->f.cli;
    return pexpect_claim(pf, f, 0) ? pf : NULL;
}

static void test_request_and_transfer(void)
{
    struct ph h;
    ph_init(&h, "tftp", 17, 40000, 69);
    xfer = NULL;
    memset(h.f.cli.b, 1, sizeof h.f.cli.b);
    memset(h.f.srv.b, 2, sizeof h.f.srv.b);
    h.f.ipver = 4;
    CHECK(tftp_probe(RRQ, sizeof RRQ - 1, &h.f) == DET_YES);
    ph_feed(&h, 0, RRQ, sizeof RRQ - 1);
    CHECK(h.txs == 1 && ph_count(&h, "tftp_tx") == 1);
    CHECK(ph_rec_is(&h, "tftp.file", 0, "rfc1350.txt") && ph_rec_is(&h, "tftp.mode", 0, "octet"));
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(tftp_eve(&h.pf, &w));
    char *line = osprey_jw_finish(&w);
    CHECK(line && !strcmp(line, "{\"tftp\":{\"packet\":\"read\",\"file\":\"rfc1350.txt\","
                                "\"mode\":\"octet\"}}\n"));
    free(line);
    ph_feed(&h, 0, "\x00\x04\x00\x01", 4); /* an ACK on port 69: no request */
    CHECK(ph_count(&h, "tftp_malformed") == 1 && h.txs == 1);

    struct pflow pf;
    struct mon_flow f;
    CHECK(!claim(&h, &pf, &f, 40001)); /* another port */
    CHECK(claim(&h, &pf, &f, 40000) == &pf);
    CHECK_EQ_U(pf.proto, (uint64_t)osprey_app_proto_find("tftp-data"));
    const struct osprey_proto_def *d = reg_proto(pf.proto);
    uint8_t blk[4 + TFTP_BLOCK];
    memset(blk, 'a', sizeof blk);
    blk[0] = 0, blk[1] = TFTP_DATA, blk[2] = 0, blk[3] = 1;
    d->parse_dgram(&pf, &f, 0, blk, sizeof blk);
    d->parse_dgram(&pf, &f, 0, blk, sizeof blk); /* block 1 again: skipped */
    blk[3] = 2;
    d->parse_dgram(&pf, &f, 0, blk, 4 + 10);     /* short: the last */
    CHECK(has_xfile && xfile.size == TFTP_BLOCK + 10 && xfile.state == OSPREY_FILE_CLOSED &&
          xfile.name_len == 11 && xfile.dir == 0);
    CHECK(ph_count(&h, "tftp_data_blocks_skipped") == 1 && ph_count(&h, "tftp_data_files") == 1);
    d->state_free(pf.state);
    pfile_free_all(&pf);
    ph_free(&h);
}

static void test_oack_and_error(void)
{
    struct ph h;
    ph_init(&h, "tftp", 17, 40000, 69);
    h.f.ipver = 4;
    static const uint8_t WRQ[] = "\x00\x02up.bin\x00OCTET\x00";
    ph_feed(&h, 0, WRQ, sizeof WRQ - 1);
    struct pflow pf;
    struct mon_flow f;
    CHECK(claim(&h, &pf, &f, 40000));
    const struct osprey_proto_def *d = reg_proto(pf.proto);
    static const uint8_t OACK[] = "\x00\x06" "blksize\x00" "1024\x00";
    d->parse_dgram(&pf, &f, 0, OACK, sizeof OACK - 1);
    uint8_t blk[4 + 600] = {0, TFTP_DATA, 0, 1};
    d->parse_dgram(&pf, &f, 1, blk, sizeof blk); /* 600 < 1024: the last */
    CHECK(has_xfile && xfile.size == 600 && xfile.state == OSPREY_FILE_CLOSED && xfile.dir == 1);
    d->state_free(pf.state);
    pfile_free_all(&pf);
    /* another transfer cut by an ERROR */
    ph_feed(&h, 0, WRQ, sizeof WRQ - 1);
    CHECK(claim(&h, &pf, &f, 40000));
    blk[3] = 1;
    d->parse_dgram(&pf, &f, 1, blk, 4 + TFTP_BLOCK);
    d->parse_dgram(&pf, &f, 0, (const uint8_t *)"\x00\x05\x00\x03full\x00", 9);
    CHECK(has_xfile && xfile.state == OSPREY_FILE_TRUNCATED);
    d->state_free(pf.state);
    pfile_free_all(&pf);
    ph_free(&h);
}

static void test_probe(void)
{
    struct mon_flow f = {.sport = 69};
    CHECK(tftp_probe(RRQ, sizeof RRQ - 1, &f) == DET_YES);
    CHECK(tftp_probe((const uint8_t *)"\x00\x01x\x00bogus\x00", 10, &f) == DET_NO);
    CHECK(tftp_probe((const uint8_t *)"\x00\x01x", 3, &f) == DET_NO);
    f.sport = 70;
    CHECK(tftp_probe(RRQ, sizeof RRQ - 1, &f) == DET_NO);
}

int main(void)
{
    test_request_and_transfer();
    test_oack_and_error();
    test_probe();
    return unit_report("test_proto_tftp");
}
