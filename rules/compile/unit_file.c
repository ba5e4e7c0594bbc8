/* unit_file.c — the file keywords (filename, fileext, filemagic, filesize, filemd5,
 * filesha1, filesha256): a unit that holds when any file of the transaction in the
 * inspected direction passes the option's test (file_match, opt_file.c), and filestore (the
 * files of a rule's match are stored: runtime.c asks the parsers at the commit). The rules
 * run under the event the protocol serves file.name under (their rows' buffer,
 * det_app_match_buffer: once a message's files are complete), so a file's hashes and size are final there. */
#include "detect_int.h"
#include "intern.h"
#include "opt_eval.h"
#include "osprey_parsers.h"
#include "plan.h"

static bool file_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                      int side)
{
    int dir = side == MON_SIDE_SVR ? 0 : 1; /* the receiver's side: what was sent to it */
    struct osprey_file_info fi;
    for (uint32_t i = 0; f && osprey_parsers_file_at(ctx, f, dir, i, &fi); i++)
        if (file_match(u->file, &fi))
            return true;
    return false;
}

static void file_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->file, sizeof u->file); /* the option's own argument: one unit per option */
}

const struct det_unit_ops det_unit_file = {
    .name = "file", .eval = file_eval, .key = file_key, .gate_safe = true};

int plan_file(struct plan_ctx *ctx)
{
    const struct opt_file *fa = ctx->o->arg;
    if (!det_base_is_app(ctx->app_base)) {
        ctx->pl->why = "file keywords on a protocol whose files Osprey does not track";
        return 0;
    }
    static const unsigned NEED[] = {[FILE_T_MAGIC] = OSPREY_FILES_MAGIC,
                                    [FILE_T_MD5] = OSPREY_FILES_MD5,
                                    [FILE_T_SHA1] = OSPREY_FILES_SHA1,
                                    [FILE_T_SHA256] = OSPREY_FILES_SHA256};
    ctx->d->file_flags |= NEED[fa->type];
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_file, .file = fa});
    return 0;
}

int plan_filestore(struct plan_ctx *ctx)
{
    ctx->pl->filestore = ctx->o->arg;
    if (ctx->pl->filestore_file) { /* alone in its rule: a file of the transaction is needed */
        static const struct opt_file any = {.type = FILE_T_NAME}; /* "" is in every name */
        plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_file, .file = &any});
    }
    /* stored files are named by their sha256 (the filestore output) */
    ctx->d->file_flags |= OSPREY_FILES_STORE | OSPREY_FILES_SHA256;
    return 0;
}

unsigned osprey_detect_file_flags(const struct osprey_detect *d)
{
    return d ? d->file_flags : 0;
}
