/* eve_app.c — application-layer records (event_type http, dns, tls …: one per transaction)
 * and the application object inside an alert. The object itself comes from its protocol's
 * writer (parsers/<proto>/eve.c, through struct osprey_eve_app): this file frames it. */
#include <stdio.h>
#include <string.h>

#include "eve_json.h"
#include "osprey_outputs.h"

const char *osprey_eve_app_write(struct osprey_jw *w, const struct osprey_eve_app *app)
{
    if (!app || !app->name || !app->write)
        return NULL;
    app->write(w, app);
    return app->name;
}

char *osprey_eve_tx_line(const struct osprey_eve_tx *t)
{
    const char *name = t->app && t->app->write ? t->app->name : NULL;
    if (!name)
        return NULL;
    struct osprey_jw w;
    osprey_eve_jw_head(&w, t->ts_us, t->flow_id, t->pcap_cnt, name);
    osprey_eve_jw_tuple(&w, t->src_ip, t->src_port, t->dest_ip, t->dest_port, t->proto);
    if (t->community_id)
        osprey_jw_str(&w, "community_id", t->community_id);
    if (t->app->tx_id) /* Suricata: http has it here, dns its own inside, tls none */
        osprey_jw_int(&w, "tx_id", t->tx_id);
    osprey_eve_app_write(&w, t->app);
    return osprey_jw_finish(&w);
}
