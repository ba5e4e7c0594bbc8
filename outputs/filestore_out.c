/* filestore_out.c — the file-store sink (outputs.file-store), Suricata 8's file-store
 * (version 2): each file a filestore rule asked for, whole, under DIR/XX/SHA256 (XX: the
 * first two hex digits of its sha256, SHA256 its 64), written to a temporary name and renamed
 * so a reader never sees half a file; a file already there (the same bytes) is not written
 * again. write-fileinfo: its fileinfo record beside it, SHA256.<seconds>.<file_id>.json. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "osprey_output.h"

struct filestore_out {
    char dir[4096];
    bool fileinfo;             /* write-fileinfo */
    atomic_uint_fast64_t seq;  /* temporary names */
    atomic_uint_fast64_t lost; /* files that could not be written */
};

static void *fs_open(const struct osprey_output_env *env, FILE *diag)
{
    char k[128];
    struct filestore_out *o = calloc(1, sizeof *o);
    if (!o) {
        fprintf(diag, "osprey: out of memory\n");
        return NULL;
    }
    osprey_output_path(env, osprey_config_str(env->cfg, osprey_output_key(env, "dir", k, sizeof k)),
                       o->dir, sizeof o->dir);
    o->fileinfo = osprey_config_bool(env->cfg, osprey_output_key(env, "write-fileinfo", k, sizeof k));
    if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
        fprintf(diag, "osprey: cannot open output %s: %s\n", o->dir, strerror(errno));
        free(o);
        return NULL;
    }
    return o;
}

static unsigned fs_takes(void *s)
{
    (void)s;
    return OSPREY_REC_FILE;
}

static bool write_all(const char *path, const void *d, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return false;
    bool ok = fwrite(d, 1, n, fp) == n;
    return fclose(fp) == 0 && ok;
}

static void fs_file(void *s, const struct osprey_eve_file *f)
{
    struct filestore_out *o = s;
    if (!f->stored || !f->data || !f->sha256)
        return;
    char sub[4200], final[4300], tmp[4400];
    snprintf(sub, sizeof sub, "%s/%.2s", o->dir, f->sha256);
    snprintf(final, sizeof final, "%s/%s", sub, f->sha256);
    snprintf(tmp, sizeof tmp, "%s/.tmp.%ld.%llu", o->dir, (long)getpid(),
             (unsigned long long)atomic_fetch_add(&o->seq, 1));
    bool ok = mkdir(sub, 0755) == 0 || errno == EEXIST;
    if (ok && access(final, F_OK) != 0) /* the same sha256: the same bytes, already there */
        ok = write_all(tmp, f->data, (size_t)f->data_len) && rename(tmp, final) == 0;
    if (!ok)
        unlink(tmp);
    if (ok && o->fileinfo) {
        char *line = osprey_eve_file_line(f);
        snprintf(tmp, sizeof tmp, "%s.%llu.%u.json", final,
                 (unsigned long long)(f->ts_us / 1000000), f->file_id);
        ok = line && write_all(tmp, line, strlen(line));
        free(line);
    }
    if (!ok)
        atomic_fetch_add(&o->lost, 1);
}

static int fs_reopen(void *s, FILE *diag)
{
    (void)s, (void)diag;
    return 0; /* each file is opened, written and closed at once: nothing stays open */
}

static uint64_t fs_lost(void *s)
{
    return atomic_load(&((struct filestore_out *)s)->lost);
}

static const char *fs_path(void *s)
{
    return ((struct filestore_out *)s)->dir;
}

static int fs_close(void *s, FILE *diag)
{
    struct filestore_out *o = s;
    uint64_t lost = atomic_load(&o->lost);
    if (lost)
        fprintf(diag, "osprey: %s: %llu files could not be stored\n", o->dir,
                (unsigned long long)lost);
    free(o);
    return lost ? -1 : 0;
}

const struct osprey_output_def filestore_out = {
    .name = "file-store",
    .open = fs_open,
    .takes = fs_takes,
    .file = fs_file,
    .reopen = fs_reopen,
    .lost = fs_lost,
    .path = fs_path,
    .close = fs_close,
};
