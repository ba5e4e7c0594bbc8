/* mpm_cache.c — compiled Hyperscan databases kept on disk between runs (Suricata 8's
 * detect.sgh-mpm-caching): compiling the fast-pattern databases is most of the startup, and a
 * ruleset seldom changes between two starts.
 *
 * A database is named by the SHA-256 of everything its compile reads: the Hyperscan version,
 * the mode, and each pattern's id, flags and bytes. So a file is either exactly the database
 * a compile would make or it is not looked at; no index, nothing to invalidate. Files are
 * written under a temporary name and renamed, so a reader never sees half of one, and a run
 * that cannot read or write the directory just compiles (caching only saves time). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "detect_int.h"

#define CACHE_MAX_FILE (256u << 20) /* larger files are not read (corrupt or foreign) */

static void key_of(const struct det_mpm *m, const uint32_t *ids, const unsigned *flags,
                   const uint32_t *bound, uint32_t n, unsigned mode, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    hex[0] = 0;
    if (!c)
        return;
    const char *v = hs_version();
    EVP_DigestInit_ex(c, EVP_sha256(), NULL);
    EVP_DigestUpdate(c, v, strlen(v) + 1);
    EVP_DigestUpdate(c, &mode, sizeof mode);
    EVP_DigestUpdate(c, &n, sizeof n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = m->len[ids[i]];
        EVP_DigestUpdate(c, &ids[i], sizeof ids[i]);
        EVP_DigestUpdate(c, &flags[i], sizeof flags[i]);
        EVP_DigestUpdate(c, &len, sizeof len);
        EVP_DigestUpdate(c, m->pat[ids[i]], len);
        if (bound) /* (a database without bounds keeps the key it always had) */
            EVP_DigestUpdate(c, &bound[i], sizeof bound[i]);
    }
    if (EVP_DigestFinal_ex(c, md, &mdlen) == 1 && mdlen >= 32)
        for (int i = 0; i < 32; i++)
            snprintf(hex + 2 * i, 3, "%02x", md[i]);
    EVP_MD_CTX_free(c);
}

static int path_of(const char *dir, const char *hex, char *out, size_t cap)
{
    int r = snprintf(out, cap, "%s/%s.hs", dir, hex);
    return r > 0 && (size_t)r < cap ? 0 : -1;
}

int det_mpm_cache_load(const struct det_mpm *m, const uint32_t *ids, const unsigned *flags,
                       const uint32_t *bound, uint32_t n, unsigned mode, hs_database_t **db)
{
    char hex[65], path[4096];
    key_of(m, ids, flags, bound, n, mode, hex);
    if (!hex[0] || path_of(m->cache, hex, path, sizeof path) < 0)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    char *buf = NULL;
    int rc = -1;
    if (fstat(fd, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size <= CACHE_MAX_FILE &&
        (buf = malloc((size_t)st.st_size))) {
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got == (size_t)st.st_size &&
            hs_deserialize_database(buf, got, db) == HS_SUCCESS) {
            rc = 0;
            futimens(fd, NULL); /* used now: the pruning goes by last use */
        }
    }
    free(buf);
    close(fd);
    return rc;
}

static void mkdirs(const char *dir)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p)
        return;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

void det_mpm_cache_store(const struct det_mpm *m, const uint32_t *ids, const unsigned *flags,
                         const uint32_t *bound, uint32_t n, unsigned mode,
                         const hs_database_t *db)
{
    char hex[65], path[4096], tmp[4200];
    key_of(m, ids, flags, bound, n, mode, hex);
    if (!hex[0] || path_of(m->cache, hex, path, sizeof path) < 0)
        return;
    char *bytes = NULL;
    size_t len = 0;
    if (hs_serialize_database(db, &bytes, &len) != HS_SUCCESS)
        return;
    mkdirs(m->cache);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        size_t put = 0;
        while (put < len) {
            ssize_t w = write(fd, bytes + put, len - put);
            if (w <= 0)
                break;
            put += (size_t)w;
        }
        bool ok = put == len;
        if (close(fd) != 0)
            ok = false;
        if (!ok || rename(tmp, path) != 0)
            unlink(tmp);
    }
    free(bytes);
}

/* Remove the cache files no start has used for max_age seconds (a file read is touched), and
 * temporary files a crashed writer left (an hour old). */
void det_mpm_cache_prune(const char *dir, double max_age)
{
    DIR *d = dir && max_age > 0 ? opendir(dir) : NULL;
    if (!d)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        bool db = n == 67 && !strcmp(e->d_name + 64, ".hs") &&
                  strspn(e->d_name, "0123456789abcdef") == 64;
        bool tmp = n > 4 && !strcmp(e->d_name + n - 4, ".tmp") && e->d_name[0] != '.';
        if (!db && !tmp)
            continue; /* not ours */
        char path[4200];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            stat(path, &st) != 0)
            continue;
        double age = difftime(now, st.st_mtime);
        if (age > (db ? max_age : 3600.0))
            unlink(path);
    }
    closedir(d);
}
