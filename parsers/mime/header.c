/* header.c — reading a structured header's parameters (RFC 2045 §5.1, RFC 2183):
 * `type/subtype; name=value; name="quoted value"`, names case-insensitive. */
#include <strings.h>

#include "mime.h"

int mime_param(const uint8_t *v, size_t n, const char *param, const uint8_t **out)
{
    size_t pl = 0;
    while (param[pl])
        pl++;
    size_t i = 0;
    bool quoted = false;
    while (i < n) {
        /* the next ';' outside quotes starts a parameter */
        if (v[i] == '"')
            quoted = !quoted;
        if (v[i++] != ';' || quoted)
            continue;
        while (i < n && (v[i] == ' ' || v[i] == '\t'))
            i++;
        if (i + pl >= n || strncasecmp((const char *)v + i, param, pl))
            continue;
        size_t j = i + pl;
        while (j < n && (v[j] == ' ' || v[j] == '\t'))
            j++;
        if (j >= n || v[j] != '=')
            continue;
        j++;
        while (j < n && (v[j] == ' ' || v[j] == '\t'))
            j++;
        if (j < n && v[j] == '"') { /* quoted: up to the closing quote (or the end) */
            size_t s = ++j;
            while (j < n && v[j] != '"')
                j++;
            *out = v + s;
            return (int)(j - s);
        }
        size_t s = j;
        while (j < n && v[j] != ';' && v[j] != ' ' && v[j] != '\t')
            j++;
        *out = v + s;
        return (int)(j - s);
    }
    return -1;
}
