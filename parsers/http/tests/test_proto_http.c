/* test_proto_http.c — HTTP's descriptor, bytes in, buffers out: the parser's own buffers, the
 * derived ones (http.header without cookies, header_names, start, single headers, frames,
 * header lines), the late request buffers under the response, fields and counters, and the
 * lines after a request that name no method (http.request_body_unexpected). */
#include "proto_harness.h"
#include "unit.h"

static const char REQ[] = "POST /a/../b?x=1 HTTP/1.1\r\n"
                          "Host: Example.COM:8080\r\n"
                          "Cookie: s=1\r\n"
                          "Accept: text/html\r\n"
                          "Accept: */*\r\n"
                          "Content-Length: 4\r\n"
                          "\r\n"
                          "body";
static const char RESP[] = "HTTP/1.1 302 Found\r\n"
                           "Set-Cookie: t=2\r\n"
                           "Location: /there\r\n"
                           "Server: osprey-test\r\n"
                           "Content-Length: 2\r\n"
                           "\r\n"
                           "ok";

static void test_request_and_response(void)
{
    struct ph h;
    ph_init(&h, "http", 6, 40000, 80);
    ph_feed(&h, 0, REQ, sizeof REQ - 1);
    CHECK(ph_buf_is(&h, "http.method", 0, 0, "POST"));
    CHECK(ph_buf_is(&h, "http.uri", 0, 0, "/b?x=1"));
    CHECK(ph_buf_is(&h, "http.uri.raw", 0, 0, "/a/../b?x=1"));
    CHECK(ph_buf_is(&h, "http.host", 0, 0, "example.com"));
    CHECK(ph_buf_is(&h, "http.cookie", 0, 0, "s=1"));
    CHECK(ph_rec_is(&h, "http.header", 0,
                    "Host: Example.COM:8080\r\nCookie: s=1\r\nAccept: text/html\r\n"
                    "Accept: */*\r\nContent-Length: 4\r\n"));
    /* Suricata's http.header leaves the cookie out */
    CHECK(ph_buf_is(&h, "http.header", 0, 0,
                    "Host: Example.COM:8080\r\nAccept: text/html\r\nAccept: */*\r\n"
                    "Content-Length: 4\r\n"));
    CHECK(ph_buf_is(&h, "http.header_names", 0, 0,
                    "\r\nHost\r\nCookie\r\nAccept\r\nAccept\r\nContent-Length\r\n\r\n"));
    CHECK(ph_buf_is(&h, "http.accept", 0, 0, "text/html, */*"));
    CHECK(ph_buf_is(&h, "http.content_len", 0, 0, "4"));
    CHECK(!ph_buf(&h, "http.connection", 0, 0, &(uint32_t){0})); /* no such header */
    CHECK(ph_buf_is(&h, "file.data", 0, 0, "body"));
    CHECK(ph_buf_is(&h, "http.request_body", 0, 0, "body"));
    /* one element per header line */
    CHECK_EQ_U(ph_nbuf(&h, "http.request_header", 0), 5);
    CHECK(ph_buf_is(&h, "http.request_header", 0, 1, "Cookie: s=1"));
    CHECK(ph_buf_is(&h, "frame:http1.request", 0, 0,
                    "POST /a/../b?x=1 HTTP/1.1\r\nHost: Example.COM:8080\r\nCookie: s=1\r\n"
                    "Accept: text/html\r\nAccept: */*\r\nContent-Length: 4\r\n\r\nbody"));
    CHECK_EQ_U(ph_count(&h, "http_requests"), 1);

    ph_feed(&h, 1, RESP, sizeof RESP - 2); /* all but the body's last byte */
    CHECK(ph_buf_is(&h, "file.data", 1, 0, "o"));
    CHECK(ph_buf_is(&h, "file.data", 0, 0, "body"));
    ph_feed(&h, 1, RESP + sizeof RESP - 2, 1);
    /* the transaction is done (its events ran, its record was written): its bodies are
     * freed rather than kept with the flow */
    CHECK(!ph_buf(&h, "file.data", 1, 0, &(uint32_t){0}));
    CHECK(!ph_buf(&h, "file.data", 0, 0, &(uint32_t){0}));
    CHECK(ph_buf_is(&h, "http.stat_code", 1, 0, "302"));
    CHECK(ph_buf_is(&h, "http.header", 1, 0,
                    "Location: /there\r\nServer: osprey-test\r\nContent-Length: 2\r\n"));
    CHECK(ph_buf_is(&h, "http.cookie", 1, 0, "t=2"));
    CHECK(ph_buf_is(&h, "http.location", 1, 0, "/there"));
    CHECK(ph_buf_is(&h, "http.server", 0, 0, "osprey-test")); /* a response's: either way */
    /* a request buffer read under the response: the same bytes */
    CHECK(ph_buf_is(&h, "http.uri", 1, 0, "/b?x=1"));
    CHECK(ph_buf_is(&h, "http.accept", 1, 0, "text/html, */*"));
    int64_t v = 0;
    CHECK(ph_field(&h, "http.status", 0, &v) && v == 302);
    CHECK(ph_field(&h, "http.response_length", 0, &v) && v == 2);
    CHECK(!ph_field(&h, "dns.rcode", 0, &v)); /* another protocol's field */
    CHECK_EQ_U(h.txs, 1);
    CHECK_EQ_U(h.def->tx_id(&h.pf), 0);
    ph_free(&h);
}

static void test_rows(void)
{
    /* the directions of the names */
    CHECK(osprey_buffer_two_sided("http.header"));
    CHECK(osprey_buffer_two_sided("file.data"));
    CHECK(!osprey_buffer_two_sided("http.uri"));
    CHECK(!osprey_buffer_two_sided("http.request_body"));
    CHECK(!osprey_buffer_two_sided("http.accept"));
    int b = osprey_buffer_find("http.uri", 1);
    CHECK(b >= 0 && osprey_buffer_is_late((uint16_t)b) &&
          !strcmp(osprey_event_name(osprey_buffer_event((uint16_t)b)), "http_response"));
    b = osprey_buffer_find("file.data", 0);
    CHECK(b >= 0 && !strcmp(osprey_event_name(osprey_buffer_event((uint16_t)b)),
                            "http_request_body"));
    b = osprey_buffer_find("http.method", 0);
    CHECK(b >= 0 && osprey_buffer_is_fp_last((uint16_t)b));
    /* records keep the parser's own header buffer, cookies included */
    b = osprey_buffer_find_record("http.header", 0);
    CHECK(b >= 0 && b != osprey_buffer_find("http.header", 0));
    /* events run in the order a transaction reaches them */
    CHECK(osprey_event_find("http_request") < osprey_event_find("http_request_done"));
    CHECK(osprey_event_find("http_request_done") < osprey_event_find("http_response"));
    CHECK(osprey_app_proto_find("http1") == osprey_app_proto_find("http"));
}

/* Was anomaly `name` raised in transaction tx (the flow's remembered anomalies)? */
static bool raised(const struct ph *h, const char *name, uint32_t tx)
{
    int e = osprey_app_event_find(name);
    for (int i = 0; i < PFLOW_TX_ANOMALIES; i++)
        if (e >= 0 && h->pf.tx_anom[i].anomaly == e + 1 && h->pf.tx_anom[i].tx == tx)
            return true;
    return false;
}

/* libhtp's REQUEST_BODY_UNEXPECTED: lines after a request in the same chunk that name no
 * method are more of its body; the first naming one starts the next request. */
static void test_request_body_unexpected(void)
{
    struct ph h;
    ph_init(&h, "http", 6, 40000, 80);
    static const char post[] = "POST /f HTTP/1.1\r\nHost: x\r\n\r\nlogin=foo\r\n\r\nx=2\r\n";
    ph_feed(&h, 0, post, sizeof post - 1);
    CHECK(ph_buf_is(&h, "http.request_body", 0, 0, "login=foo\r\nx=2\r\n"));
    CHECK(raised(&h, "http.request_body_unexpected", 0));
    static const char next[] = "GET /n HTTP/1.1\r\nHost: x\r\n\r\n";
    ph_feed(&h, 0, next, sizeof next - 1);
    CHECK(ph_buf_is(&h, "http.uri", 0, 0, "/n"));
    CHECK_EQ_U(ph_count(&h, "http_requests"), 2);
    CHECK(!raised(&h, "http.request_body_unexpected", 1));
    ph_free(&h);

    /* a body framed by Content-Length, a CRLF and a request after it: no event; a known
     * method after form data ends the body there */
    ph_init(&h, "http", 6, 40000, 80);
    static const char ok[] = "POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc\r\n"
                             "PUT /p HTTP/1.1\r\nContent-Length: 0\r\n\r\n";
    ph_feed(&h, 0, ok, sizeof ok - 1);
    CHECK(ph_buf_is(&h, "http.uri", 0, 0, "/p"));
    CHECK(!raised(&h, "http.request_body_unexpected", 0));
    CHECK(!raised(&h, "http.request_body_unexpected", 1));
    ph_free(&h);

    /* HTTP/0.9: no body follows, the rest is not read as one */
    ph_init(&h, "http", 6, 40000, 80);
    static const char simple[] = "GET /old\r\njunk line\r\n";
    ph_feed(&h, 0, simple, sizeof simple - 1);
    CHECK(!raised(&h, "http.request_body_unexpected", 0));
    ph_free(&h);
}

/* libhtp's warnings on a head, raised with it as Suricata's events (anomalies.c): each in
 * its transaction, none on a plain exchange */
static void test_head_warnings(void)
{
    struct ph h;
    ph_init(&h, "http", 6, 40000, 80);
    static const char ok[] = "GET / HTTP/1.1\r\nHost: a.example\r\n\r\n";
    ph_feed(&h, 0, ok, sizeof ok - 1);
    static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    ph_feed(&h, 1, resp, sizeof resp - 1);
    for (int i = 0; i < PFLOW_TX_ANOMALIES; i++)
        CHECK(!h.pf.tx_anom[i].anomaly);
    static const char odd[] = " GET\t/ HTTP/1.1\r\nHost: a..b\r\nX: 1\r\nx: 2\r\n\r\n";
    ph_feed(&h, 0, odd, sizeof odd - 1);
    CHECK(ph_buf_is(&h, "http.method", 0, 0, "GET")); /* read after the whitespace */
    CHECK(raised(&h, "http.request_line_leading_whitespace", 1));
    CHECK(raised(&h, "http.method_delim_non_compliant", 1));
    CHECK(raised(&h, "http.request_header_host_invalid", 1));
    CHECK(raised(&h, "http.request_header_repetition", 1));
    CHECK(!raised(&h, "http.missing_host_header", 1));
    static const char bad[] = "HTTP/1.0 2000 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
    ph_feed(&h, 1, bad, sizeof bad - 1);
    CHECK(raised(&h, "http.response_invalid_status", 1));
    CHECK(raised(&h, "http.response_chunked_old_proto", 1));
    CHECK(!raised(&h, "http.response_invalid_protocol", 1));
    ph_free(&h);
}

int main(void)
{
    test_head_warnings();
    test_request_and_response();
    test_request_body_unexpected();
    test_rows();
    return unit_report("test_proto_http");
}
