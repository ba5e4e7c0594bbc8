/* parsers_config.c — app-layer.protocols.* → struct osprey_parsers_cfg. */
#include "parsers_config.h"

static int limit(const struct osprey_config *c, const char *key, uint32_t *out, FILE *diag)
{
    uint64_t v = osprey_config_size(c, key);
    if (v > UINT32_MAX) {
        char where[256];
        fprintf(diag, "%s: %s: must be under 4gb\n", osprey_config_origin(c, key, where, sizeof where),
                key);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int osprey_parsers_cfg_load(const struct osprey_config *c, struct osprey_parsers_cfg *out,
                            FILE *diag)
{
    osprey_parsers_cfg_defaults(out);
    int rc = 0;
    rc |= limit(c, "app-layer.protocols.http.header-limit", &out->http_header_limit, diag);
    rc |= limit(c, "app-layer.protocols.http.request-body-limit", &out->http_request_body_limit,
                diag);
    rc |= limit(c, "app-layer.protocols.http.response-body-limit", &out->http_response_body_limit,
                diag);
    out->http_decompress = osprey_config_bool(c, "app-layer.protocols.http.decompress");
#define LIBHTP "app-layer.protocols.http.libhtp.default-config."
    out->http_decompress_layer_limit =
        (uint32_t)osprey_config_int(c, LIBHTP "response-body-decompress-layer-limit");
    out->http_lzma_enabled = osprey_config_bool(c, LIBHTP "lzma-enabled");
    rc |= limit(c, LIBHTP "lzma-memlimit", &out->http_lzma_memlimit, diag);
#undef LIBHTP
    if (!rc && out->http_header_limit < 64) {
        char where[256];
        fprintf(diag, "%s: app-layer.protocols.http.header-limit: at least 64 bytes\n",
                osprey_config_origin(c, "app-layer.protocols.http.header-limit", where, sizeof where));
        rc = -1;
    }
    return rc ? -1 : 0;
}
