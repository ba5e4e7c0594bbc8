/* registry.c — the option tables of every options file, in keyword-id order: data only. The
 * rules core reads them (rules/core/keywords.c: ids, names, the name index) and reaches each
 * keyword through its row, never by a function name here. */
#include "registry.h"


/* Order fixes the keyword ids (and the order of the check report's table). */
static const struct opt_table *const TABLES[] = {
    &opt_table_msg,      &opt_table_ids,        &opt_table_classtype, &opt_table_reference,
    &opt_table_metadata, &opt_table_target,     &opt_table_content,    &opt_table_pcre,      &opt_table_buffers,
    &opt_table_transforms, &opt_table_flow,     &opt_table_flowbits,  &opt_table_byte,
    &opt_table_compare,  &opt_table_ipflags,    &opt_table_threshold, &opt_table_events,
    &opt_table_tls,      &opt_table_file,       &opt_table_dce,       &opt_table_app, &opt_table_mqtt,
    &opt_table_smb,
    &opt_table_misc,     &opt_table_asn1,       &opt_table_geoip,      &opt_table_pktprop,
    &opt_table_hints,    &opt_table_absent,     &opt_table_entropy,    &opt_table_dataset,
    &opt_table_krb5,     &opt_table_ldap,       &opt_table_snmp,
    &opt_table_http2,
    &opt_table_dhcp,     &opt_table_ntp,        &opt_table_ike,
    &opt_table_pop3,
    &opt_table_nfs,
    &opt_table_websocket, &opt_table_rfb,
    &opt_table_lua,
};
#define NTABLES (sizeof TABLES / sizeof TABLES[0])

const struct opt_table *const *const opt_tables = TABLES;
const size_t opt_ntables = NTABLES;
