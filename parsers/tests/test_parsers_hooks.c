/* test_parsers_hooks.c — the protocol states the firewall's tables walk (core/hooks.c): each
 * direction's states in order, the event a state without one of its own runs at, and the
 * fallback to the events' hook names for a protocol that lists no states. */
#include <string.h>

#include "parsers_int.h"
#include "unit.h"

static void test_http_states(void)
{
    int http = osprey_app_proto_find("http");
    CHECK(http > OSPREY_APP_PROTO_FAILED);
    struct osprey_hook h;
    CHECK(osprey_hook_find((uint16_t)http, "request_line", &h) == 0);
    CHECK(h.dir == 0 && h.rank == 1 && h.own_event);
    CHECK(h.event == osprey_event_find("http_request_line"));
    /* request_started has no event: it is decided at request_line's */
    CHECK(osprey_hook_find((uint16_t)http, "request_started", &h) == 0);
    CHECK(h.rank == 0 && !h.own_event && h.event == osprey_event_find("http_request_line"));
    /* the trailer: at request_complete's */
    CHECK(osprey_hook_find((uint16_t)http, "request_trailer", &h) == 0);
    CHECK(h.rank == 4 && h.event == osprey_event_find("http_request_done"));
    CHECK(osprey_hook_find((uint16_t)http, "response_line", &h) == 0);
    CHECK(h.dir == 1 && h.rank == 1 && h.event == osprey_event_find("http_response"));
    CHECK(osprey_hook_find((uint16_t)http, "no_such_state", &h) < 0);
    CHECK_EQ_U(osprey_hook_count((uint16_t)http, 0), 6);
    CHECK_EQ_U(osprey_hook_count((uint16_t)http, 1), 6);
    CHECK(!strcmp(osprey_hook_name((uint16_t)http, 1, 5), "response_complete"));
    CHECK(osprey_hook_name((uint16_t)http, 1, 6) == NULL);
    /* back from an event: the state it is */
    CHECK(osprey_event_hook((uint16_t)osprey_event_find("http_request"), &h) == 0);
    CHECK(h.proto == http && h.dir == 0 && h.rank == 2);
}

static void test_tls_states(void)
{
    uint16_t tls = (uint16_t)osprey_app_proto_find("tls");
    struct osprey_hook h;
    CHECK(osprey_hook_find(tls, "server_cert_done", &h) == 0);
    CHECK(h.dir == 1 && h.rank == 2 && h.event == osprey_event_find("tls_certificate"));
    CHECK(osprey_hook_find(tls, "server_in_progress", &h) == 0);
    CHECK(h.rank == 0 && h.event == osprey_event_find("tls_server_hello"));
    /* after the direction's last event: no event, its rules never run */
    CHECK(osprey_hook_find(tls, "server_finished", &h) == 0 && h.event < 0);
}

static void test_events_without_a_state(void)
{
    struct osprey_hook h;
    /* an event that is no state (the HTTP response body is one; a DNS query is not) */
    int ev = osprey_event_find("dns_query");
    CHECK(ev >= 0 && osprey_event_hook((uint16_t)ev, &h) < 0);
}

int main(void)
{
    test_http_states();
    test_tls_states();
    test_events_without_a_state();
    return unit_report("test_parsers_hooks");
}
