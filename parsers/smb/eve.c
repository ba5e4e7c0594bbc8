/* eve.c — SMB's EVE object of the transaction in force, with Suricata 8's field names: id,
 * dialect, command (SMB1_COMMAND_… / SMB2_COMMAND_…), status and status_code (the NTSTATUS
 * name, its hex code), session_id, tree_id, a tree connect's share or named_pipe and
 * share_type, a file's filename, disposition and fuid, the NTLMSSP user, domain and host of a
 * session setup, and the DCERPC object of a named pipe's transaction (parsers/dcerpc's, as
 * the guest writes it carried). */
#include <stdio.h>
#include <string.h>

#include "osprey_json_writer.h"
#include "smb_int.h"

static const char *smb1_name(uint16_t c)
{
    switch (c) {
    case 0x00: return "SMB1_COMMAND_CREATE_DIRECTORY";
    case 0x01: return "SMB1_COMMAND_DELETE_DIRECTORY";
    case 0x04: return "SMB1_COMMAND_CLOSE";
    case 0x06: return "SMB1_COMMAND_DELETE";
    case 0x07: return "SMB1_COMMAND_RENAME";
    case 0x08: return "SMB1_COMMAND_QUERY_INFORMATION";
    case 0x0a: return "SMB1_COMMAND_READ";
    case 0x0b: return "SMB1_COMMAND_WRITE";
    case 0x10: return "SMB1_COMMAND_CHECK_DIRECTORY";
    case 0x24: return "SMB1_COMMAND_LOCKING_ANDX";
    case 0x25: return "SMB1_COMMAND_TRANS";
    case 0x26: return "SMB1_COMMAND_TRANS_SECONDARY";
    case 0x2b: return "SMB1_COMMAND_ECHO";
    case 0x2e: return "SMB1_COMMAND_READ_ANDX";
    case 0x2f: return "SMB1_COMMAND_WRITE_ANDX";
    case 0x32: return "SMB1_COMMAND_TRANS2";
    case 0x33: return "SMB1_COMMAND_TRANS2_SECONDARY";
    case 0x34: return "SMB1_COMMAND_FIND_CLOSE2";
    case 0x71: return "SMB1_COMMAND_TREE_DISCONNECT";
    case 0x72: return "SMB1_COMMAND_NEGOTIATE_PROTOCOL";
    case 0x73: return "SMB1_COMMAND_SESSION_SETUP_ANDX";
    case 0x74: return "SMB1_COMMAND_LOGOFF_ANDX";
    case 0x75: return "SMB1_COMMAND_TREE_CONNECT_ANDX";
    case 0xa0: return "SMB1_COMMAND_NT_TRANS";
    case 0xa1: return "SMB1_COMMAND_NT_TRANS_SECONDARY";
    case 0xa2: return "SMB1_COMMAND_NT_CREATE_ANDX";
    case 0xa4: return "SMB1_COMMAND_NT_CANCEL";
    default: return "SMB1_COMMAND_UNKNOWN";
    }
}

static const char *smb2_name(uint16_t c)
{
    static const char *const N[] = {
        "SMB2_COMMAND_NEGOTIATE", "SMB2_COMMAND_SESSION_SETUP", "SMB2_COMMAND_SESSION_LOGOFF",
        "SMB2_COMMAND_TREE_CONNECT", "SMB2_COMMAND_TREE_DISCONNECT", "SMB2_COMMAND_CREATE",
        "SMB2_COMMAND_CLOSE", "SMB2_COMMAND_FLUSH", "SMB2_COMMAND_READ", "SMB2_COMMAND_WRITE",
        "SMB2_COMMAND_LOCK", "SMB2_COMMAND_IOCTL", "SMB2_COMMAND_CANCEL",
        "SMB2_COMMAND_KEEPALIVE", "SMB2_COMMAND_QUERY_DIRECTORY", "SMB2_COMMAND_CHANGE_NOTIFY",
        "SMB2_COMMAND_QUERY_INFO", "SMB2_COMMAND_SET_INFO", "SMB2_COMMAND_OPLOCK_BREAK"};
    return c < sizeof N / sizeof N[0] ? N[c] : "SMB2_COMMAND_UNKNOWN";
}

static const struct {
    uint32_t code;
    const char *name;
} STATUS[] = {
    {0x00000000, "STATUS_SUCCESS"},
    {0x00000103, "STATUS_PENDING"},
    {0x0000010c, "STATUS_NOTIFY_ENUM_DIR"},
    {0x80000005, "STATUS_BUFFER_OVERFLOW"},
    {0x80000006, "STATUS_NO_MORE_FILES"},
    {0xc0000002, "STATUS_NOT_IMPLEMENTED"},
    {0xc0000003, "STATUS_INVALID_INFO_CLASS"},
    {0xc0000008, "STATUS_INVALID_HANDLE"},
    {0xc000000d, "STATUS_INVALID_PARAMETER"},
    {0xc000000f, "STATUS_NO_SUCH_FILE"},
    {0xc0000010, "STATUS_INVALID_DEVICE_REQUEST"},
    {0xc0000011, "STATUS_END_OF_FILE"},
    {0xc0000016, "STATUS_MORE_PROCESSING_REQUIRED"},
    {0xc0000022, "STATUS_ACCESS_DENIED"},
    {0xc0000023, "STATUS_BUFFER_TOO_SMALL"},
    {0xc0000034, "STATUS_OBJECT_NAME_NOT_FOUND"},
    {0xc0000035, "STATUS_OBJECT_NAME_COLLISION"},
    {0xc000003a, "STATUS_OBJECT_PATH_NOT_FOUND"},
    {0xc0000043, "STATUS_SHARING_VIOLATION"},
    {0xc0000056, "STATUS_DELETE_PENDING"},
    {0xc000006d, "STATUS_LOGON_FAILURE"},
    {0xc000009a, "STATUS_INSUFFICIENT_RESOURCES"},
    {0xc00000b5, "STATUS_IO_TIMEOUT"},
    {0xc00000ba, "STATUS_FILE_IS_A_DIRECTORY"},
    {0xc00000bb, "STATUS_NOT_SUPPORTED"},
    {0xc00000cc, "STATUS_BAD_NETWORK_NAME"},
    {0xc0000103, "STATUS_NOT_A_DIRECTORY"},
    {0xc0000120, "STATUS_CANCELLED"},
    {0xc0000128, "STATUS_FILE_CLOSED"},
    {0xc000014b, "STATUS_PIPE_BROKEN"},
    {0xc0000203, "STATUS_USER_SESSION_DELETED"},
    {0xc0000225, "STATUS_NOT_FOUND"},
    {0xc0000001, "STATUS_UNSUCCESSFUL"},
    {0xc0000004, "STATUS_INFO_LENGTH_MISMATCH"},
    {0xc0000017, "STATUS_NO_MEMORY"},
    {0xc0000024, "STATUS_OBJECT_TYPE_MISMATCH"},
    {0xc0000033, "STATUS_OBJECT_NAME_INVALID"},
    {0xc0000061, "STATUS_PRIVILEGE_NOT_HELD"},
    {0xc0000064, "STATUS_NO_SUCH_USER"},
    {0xc000006a, "STATUS_WRONG_PASSWORD"},
    {0xc0000071, "STATUS_PASSWORD_EXPIRED"},
    {0xc0000072, "STATUS_ACCOUNT_DISABLED"},
    {0xc000007f, "STATUS_DISK_FULL"},
    {0xc00000ac, "STATUS_PIPE_NOT_AVAILABLE"},
    {0xc00000b0, "STATUS_PIPE_DISCONNECTED"},
    {0xc00000b1, "STATUS_PIPE_CLOSING"},
    {0xc00000c9, "STATUS_NETWORK_NAME_DELETED"},
    {0xc00000d9, "STATUS_PIPE_EMPTY"},
    {0xc0000101, "STATUS_DIRECTORY_NOT_EMPTY"},
    {0xc000015b, "STATUS_LOGON_TYPE_NOT_GRANTED"},
    {0xc0000234, "STATUS_ACCOUNT_LOCKED_OUT"},
};

static void dialect(const struct smb_state *st, char *out, size_t n)
{
    uint16_t d = st->dialect;
    if (d == 0x02ff)
        snprintf(out, n, "2.??");
    else if (d)
        snprintf(out, n, "%x.%02x", d >> 8, d & 0xff);
    else if (st->dialect1[0])
        snprintf(out, n, "%s", st->dialect1);
    else
        snprintf(out, n, "unknown");
}

/* A FileId as Suricata prints it (a GUID's mixed byte order); an SMB1 FID as 4 hex digits. */
static void fuid(const struct smb_tx *tx, char *out, size_t n)
{
    const uint8_t *b = tx->fid;
    if (tx->fid_len == 16)
        snprintf(out, n,
                 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[3],
                 b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[9], b[8], b[11], b[10], b[15],
                 b[14], b[13], b[12]);
    else
        snprintf(out, n, "%02x%02x", b[1], b[0]);
}

bool smb_eve(struct pflow *pf, struct osprey_jw *w)
{
    struct smb_state *st = pf->state;
    if (!st || !st->tx.id)
        return false;
    if (!w)
        return true;
    const struct smb_tx *tx = &st->tx;
    char buf[64];
    osprey_jw_open(w, "smb");
    osprey_jw_int(w, "id", (int64_t)tx->id);
    dialect(st, buf, sizeof buf);
    osprey_jw_str(w, "dialect", buf);
    osprey_jw_str(w, "command", tx->ver == 1 ? smb1_name(tx->cmd) : smb2_name(tx->cmd));
    if (tx->has_resp && tx->dos_status) {
        /* SMB1 without NT status: an error class (byte 0) and code (bytes 2-3) */
        uint8_t cls = (uint8_t)tx->status;
        uint16_t code = (uint16_t)(tx->status >> 16);
        const char *cname = cls == 0 ? "SUCCESS" : cls == 1 ? "DOS" : cls == 2 ? "SRV"
                            : cls == 3 ? "HRD" : "UNKNOWN";
        if (cls == 2 && code == 0x5b)
            snprintf(buf, sizeof buf, "SRV_BADUID");
        else if (cls == 0 && code == 0)
            snprintf(buf, sizeof buf, "STATUS_SUCCESS");
        else
            snprintf(buf, sizeof buf, "%s_ERROR_0x%04x", cname, code);
        osprey_jw_str(w, "status", buf);
        snprintf(buf, sizeof buf, "0x%04x", code);
        osprey_jw_str(w, "status_code", buf);
    } else if (tx->has_resp) {
        const char *name = NULL;
        for (size_t i = 0; i < sizeof STATUS / sizeof STATUS[0] && !name; i++)
            if (STATUS[i].code == tx->status)
                name = STATUS[i].name;
        snprintf(buf, sizeof buf, "0x%x", tx->status);
        osprey_jw_str(w, "status", name ? name : buf);
        osprey_jw_str(w, "status_code", buf);
    }
    osprey_jw_int(w, "session_id", (int64_t)tx->session_id);
    osprey_jw_int(w, "tree_id", tx->tree_id);
    if (tx->is_tree) {
        osprey_jw_strn(w, tx->is_pipe ? "named_pipe" : "share", tx->name, tx->name_len);
        if (tx->has_resp && tx->status == 0)
            osprey_jw_str(w, "share_type", tx->is_pipe ? "PIPE" : "FILE");
    } else if (tx->is_file) {
        osprey_jw_strn(w, "filename", tx->name, tx->name_len);
    }
    if (tx->has_disposition) {
        static const char *const D[] = {"FILE_SUPERSEDE", "FILE_OPEN", "FILE_CREATE",
                                        "FILE_OPEN_IF", "FILE_OVERWRITE", "FILE_OVERWRITE_IF"};
        if (tx->disposition < 6)
            osprey_jw_str(w, "disposition", D[tx->disposition]);
    }
    if (tx->has_fid) {
        fuid(tx, buf, sizeof buf);
        osprey_jw_str(w, "fuid", buf);
    }
    if (tx->ntlm) {
        osprey_jw_open(w, "ntlmssp");
        osprey_jw_strn(w, "domain", tx->domain, tx->domain_len);
        osprey_jw_strn(w, "user", tx->user, tx->user_len);
        osprey_jw_strn(w, "host", tx->host, tx->host_len);
        osprey_jw_close(w);
    }
    for (int k = 0; k < 2; k++) {
        if (!tx->native[k])
            continue;
        osprey_jw_open(w, k ? "response" : "request");
        osprey_jw_strn(w, "native_os", tx->native_os[k], tx->native_os_len[k]);
        osprey_jw_strn(w, "native_lm", tx->native_lm[k], tx->native_lm_len[k]);
        osprey_jw_close(w);
    }
    if (tx->dcerpc)
        pflow_guest_eve(pf->guest, w);
    osprey_jw_close(w);
    return true;
}
