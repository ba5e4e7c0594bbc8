/* names.c — the names Suricata writes for NFS procedures (v2 and v3 by v3's table, v4's
 * operations) and statuses (RFC 1813 §2.6); NULL where it writes the number. */
#include <strings.h>

#include "nfs_int.h"

const char *nfs_procedure_name(uint32_t version, uint32_t p)
{
    static const char *const V3[] = {
        "NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ", "WRITE",
        "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR", "RENAME", "LINK",
        "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO", "PATHCONF", "COMMIT"};
    static const char *const V4[] = {
        [0] = "NULL", [1] = "COMPOUND", [3] = "ACCESS", [4] = "CLOSE", [5] = "COMMIT",
        [6] = "CREATE", [7] = "DELEGPURGE", [8] = "DELEGRETURN", [9] = "GETATTR",
        [10] = "GETFH", [11] = "LINK", [12] = "LOCK", [13] = "LOCKT", [14] = "LOCKU",
        [15] = "LOOKUP", [16] = "LOOKUPP", [17] = "NVERIFY", [18] = "OPEN",
        [19] = "OPENATTR", [20] = "OPEN_CONFIRM", [21] = "OPEN_DOWNGRADE", [22] = "PUTFH",
        [23] = "PUTPUBFH", [24] = "PUTROOTFH", [25] = "READ", [26] = "READDIR",
        [27] = "READLINK", [28] = "REMOVE", [29] = "RENAME", [30] = "RENEW",
        [31] = "RESTOREFH", [32] = "SAVEFH", [33] = "SECINFO", [34] = "SETATTR",
        [35] = "SETCLIENTID", [36] = "SETCLIENTID_CONFIRM", [37] = "VERIFY", [38] = "WRITE",
        [39] = "RELEASE_LOCKOWNER"};
    if (version < 4)
        return p < sizeof V3 / sizeof V3[0] ? V3[p] : NULL;
    if (p == 10044)
        return "ILLEGAL";
    return p < sizeof V4 / sizeof V4[0] ? V4[p] : NULL;
}

/* Every procedure name of either table once: the values of the field nfs_procedure.name, so
 * a rule's `nfs_procedure:getattr` matches v3's GETATTR (1) and v4's (9) alike, as Suricata
 * reads a name (its number in the table of the flow's version). */
const struct proto_value nfs_procedure_names[] = {
    {"null", 0}, {"getattr", 1}, {"setattr", 2}, {"lookup", 3}, {"access", 4},
    {"readlink", 5}, {"read", 6}, {"write", 7}, {"create", 8}, {"mkdir", 9},
    {"symlink", 10}, {"mknod", 11}, {"remove", 12}, {"rmdir", 13}, {"rename", 14},
    {"link", 15}, {"readdir", 16}, {"readdirplus", 17}, {"fsstat", 18}, {"fsinfo", 19},
    {"pathconf", 20}, {"commit", 21}, {"compound", 22}, {"close", 23}, {"delegpurge", 24},
    {"delegreturn", 25}, {"getfh", 26}, {"lock", 27}, {"lockt", 28}, {"locku", 29},
    {"lookupp", 30}, {"nverify", 31}, {"open", 32}, {"openattr", 33}, {"open_confirm", 34},
    {"open_downgrade", 35}, {"putfh", 36}, {"putpubfh", 37}, {"putrootfh", 38},
    {"renew", 39}, {"restorefh", 40}, {"savefh", 41}, {"secinfo", 42}, {"setclientid", 43},
    {"setclientid_confirm", 44}, {"verify", 45}, {"release_lockowner", 46}, {"illegal", 47},
    {NULL, 0}};

int64_t nfs_procedure_name_id(uint32_t version, uint32_t p)
{
    const char *n = nfs_procedure_name(version, p);
    for (const struct proto_value *v = nfs_procedure_names; n && v->name; v++)
        if (!strcasecmp(v->name, n))
            return v->value;
    return -1; /* a number without a name */
}

const char *nfs_status_name(uint32_t s)
{
    static const struct { uint32_t v; const char *n; } S[] = {
        {0, "OK"}, {1, "ERR_PERM"}, {2, "ERR_NOENT"}, {5, "ERR_IO"}, {6, "ERR_NXIO"},
        {13, "ERR_ACCES"}, {17, "ERR_EXIST"}, {18, "ERR_XDEV"}, {19, "ERR_NODEV"},
        {20, "ERR_NOTDIR"}, {21, "ERR_ISDIR"}, {22, "ERR_INVAL"}, {27, "ERR_FBIG"},
        {28, "ERR_NOSPC"}, {30, "ERR_ROFS"}, {31, "ERR_MLINK"}, {63, "ERR_NAMETOOLONG"},
        {66, "ERR_NOTEMPTY"}, {69, "ERR_DQUOT"}, {70, "ERR_STALE"}, {71, "ERR_REMOTE"},
        {10001, "ERR_BADHANDLE"}, {10002, "ERR_NOT_SYNC"}, {10003, "ERR_BAD_COOKIE"},
        {10004, "ERR_NOTSUPP"}, {10005, "ERR_TOOSMALL"}, {10006, "ERR_SERVERFAULT"},
        {10007, "ERR_BADTYPE"}, {10008, "ERR_JUKEBOX"}};
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++)
        if (S[i].v == s)
            return S[i].n;
    return NULL;
}
