/* report_html.h — `osprey -r … --report FILE.html`: the HTML page of the run, written by the
 * osprey-report companion (tools/osprey-report) from the run's eve.json once it is closed. */
#ifndef OSPREY_REPORT_HTML_H
#define OSPREY_REPORT_HTML_H

/* Run osprey-report (found beside this binary: osprey_config_companion) on eve and wait for
 * it. 0, or -1 after saying why on stderr (no companion, no EVE file, the report failed). */
int osprey_report_html(const char *eve, const char *html);

#endif
