/* anomalies.c — what libhtp logs about a message head, as Suricata raises it: each warning
 * head.c noted in http_head_info becomes its app-layer event (its row per direction), raised
 * once per head with the head's transaction current. */
#include "http_int.h"

/* libhtp's warnings about a head (http_head_info), Suricata's events */
void http_head_anomalies(struct pflow *pf, struct mon_flow *f, int dir,
                         const struct http_tx *t, const struct http_head_info *i)
{
    const struct {
        bool on;
        unsigned req, resp; /* its row per direction (~0u: none) */
    } map[] = {
        {i->leading_ws, HTTP_AE_LEADING_WS, ~0u},
        {i->method_delim, HTTP_AE_METHOD_DELIM, ~0u},
        {i->uri_delim, HTTP_AE_URI_DELIM, ~0u},
        {i->repeated, HTTP_AE_REQ_REPETITION, HTTP_AE_RESP_REPETITION},
        {i->missing_colon, HTTP_AE_REQ_MISSING_COLON, HTTP_AE_RESP_MISSING_COLON},
        {i->name_invalid, HTTP_AE_REQ_HEADER_INVALID, HTTP_AE_RESP_HEADER_INVALID},
        {i->bad_folding, HTTP_AE_REQ_FOLDING, HTTP_AE_RESP_FOLDING},
        {i->host_missing, HTTP_AE_MISSING_HOST, ~0u},
        {i->host_ambiguous, HTTP_AE_HOST_AMBIGUOUS, ~0u},
        {i->hosth_invalid, HTTP_AE_HEADER_HOST_INVALID, ~0u},
        {i->hostu_invalid, HTTP_AE_URI_HOST_INVALID, ~0u},
        /* a response's C-L matters only when it frames a body (not to HEAD) */
        {i->cl_invalid && (dir == 0 || (!i->chunked && !t->is_head)),
         HTTP_AE_INVALID_CL_REQUEST, HTTP_AE_INVALID_CL_RESPONSE},
        {i->proto_invalid, ~0u, HTTP_AE_RESP_INVALID_PROTOCOL},
        {i->status_invalid, ~0u, HTTP_AE_RESP_INVALID_STATUS},
        {i->te_abnormal && !t->is_head, ~0u, HTTP_AE_RESP_ABNORMAL_TE},
        {i->chunked && i->proto_old && !t->is_head, ~0u, HTTP_AE_RESP_CHUNKED_OLD},
    };
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++) {
        unsigned row = dir == 0 ? map[k].req : map[k].resp;
        if (map[k].on && row != ~0u)
            pflow_anomaly(pf, f, dir, row);
    }
}
