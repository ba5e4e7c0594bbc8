/* eve_file.c — fileinfo records (event_type fileinfo): one per file a flow carried, with
 * the flow's protocol object beside it, and the same fields for an alert's "files" array (Suricata's keys and order: filename, magic, gaps,
 * state, md5, sha1, sha256, stored, file_id, size, tx_id). */
#include "eve_json.h"
#include "osprey_outputs.h"

void osprey_eve_files_write(struct osprey_jw *w, const struct osprey_eve_file *f, uint32_t n)
{
    if (!n)
        return;
    osprey_jw_array(w, "files");
    for (uint32_t i = 0; i < n; i++) {
        osprey_jw_open(w, NULL);
        osprey_eve_file_fields(w, &f[i]);
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

void osprey_eve_file_fields(struct osprey_jw *w, const struct osprey_eve_file *f)
{
    osprey_jw_strn(w, "filename", f->filename ? f->filename : (const uint8_t *)"",
                   f->filename_len);
    if (f->magic)
        osprey_jw_str(w, "magic", f->magic);
    osprey_jw_bool(w, "gaps", f->gaps);
    osprey_jw_str(w, "state", f->state);
    if (f->md5)
        osprey_jw_str(w, "md5", f->md5);
    if (f->sha1)
        osprey_jw_str(w, "sha1", f->sha1);
    if (f->sha256)
        osprey_jw_str(w, "sha256", f->sha256);
    osprey_jw_bool(w, "stored", f->stored);
    if (f->stored)
        osprey_jw_int(w, "file_id", f->file_id);
    osprey_jw_int(w, "size", (int64_t)f->size);
    osprey_jw_int(w, "tx_id", f->tx_id);
}

char *osprey_eve_file_line(const struct osprey_eve_file *f)
{
    struct osprey_jw w;
    osprey_eve_jw_head(&w, f->ts_us, f->flow_id, f->pcap_cnt, "fileinfo");
    osprey_eve_jw_tuple(&w, f->src_ip, f->src_port, f->dest_ip, f->dest_port, f->proto);
    if (f->community_id)
        osprey_jw_str(&w, "community_id", f->community_id);
    osprey_eve_app_write(&w, f->app);
    if (f->app_proto)
        osprey_jw_str(&w, "app_proto", f->app_proto);
    osprey_jw_open(&w, "fileinfo");
    osprey_eve_file_fields(&w, f);
    osprey_jw_close(&w);
    return osprey_jw_finish(&w);
}
