/* probe.c — is this HTTP? A known method and a space at the start of the client's stream
 * (empty lines before it allowed), or "HTTP/1." at the start of the server's. And the
 * methods libhtp knows (after a request, a line naming none is more of its body). */
#include <string.h>

#include "http_int.h"

static const char *const methods[] = {
    "GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "CONNECT", "TRACE", "PATCH",
    "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "SEARCH", "REPORT",
    "CHECKOUT", "MERGE", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "MKACTIVITY",
};

enum probe_verdict detect_http_request(const uint8_t *d, size_t n)
{
    enum probe_verdict best = DET_NO;
    /* a client may send empty lines before its first request */
    while (n && (*d == '\r' || *d == '\n'))
        d++, n--;
    if (!n)
        return DET_NEED_MORE;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        char w[24];
        size_t wl = strlen(methods[i]);
        memcpy(w, methods[i], wl);
        w[wl++] = ' ';
        enum probe_verdict v = probe_prefix(d, n, w, wl);
        if (v == DET_YES)
            return DET_YES;
        if (v == DET_NEED_MORE)
            best = DET_NEED_MORE;
    }
    return best;
}

enum probe_verdict detect_http_response(const uint8_t *d, size_t n)
{
    return probe_prefix(d, n, "HTTP/1.", 7);
}


bool http_method_known(const uint8_t *p, size_t n)
{
    static const char *const libhtp[] = {
        "GET", "HEAD", "PUT", "POST", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
        "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "VERSION-CONTROL",
        "CHECKOUT", "UNCHECKOUT", "CHECKIN", "UPDATE", "LABEL", "REPORT", "MKWORKSPACE",
        "MKACTIVITY", "BASELINE-CONTROL", "MERGE",
    };
    for (size_t i = 0; i < sizeof libhtp / sizeof libhtp[0]; i++)
        if (strlen(libhtp[i]) == n && !memcmp(libhtp[i], p, n))
            return true;
    return false;
}
