"""stream-event: the checks of Suricata's TCP state machine, one connection each.

Every case runs the same rule file (one rule per event Osprey raises from its state machine)
over a scapy conversation that breaks exactly one rule of the handshake, the established
state or the close, and asserts the exact (event, packet) pairs: the event on the packet that
shows it and nothing anywhere else, so a check that fires on ordinary traffic fails too.
Suricata's session state is read off both endpoints (stack/tcp/README.md, "Stream events");
client seq starts at 1000, server seq at 5000, windows are 65535 (Conv)."""
import pytest

from detect_helpers import Conv, detect, rule

EVENTS = [
    "3whs_synack_in_wrong_direction", "3whs_synack_with_wrong_ack", "3whs_async_wrong_seq",
    "3whs_synack_toserver_on_syn_recv", "3whs_synack_resend_with_different_ack",
    "3whs_synack_flood", "3whs_syn_toclient_on_syn_recv",
    "3whs_syn_resend_diff_seq_on_syn_recv", "3whs_ack_in_wrong_dir",
    "3whs_right_seq_wrong_ack_evasion", "3whs_wrong_seq_wrong_ack",
    "4whs_synack_with_wrong_ack", "4whs_synack_with_wrong_syn", "4whs_wrong_seq",
    "4whs_invalid_ack", "3whs_ack_data_inject",
    "est_synack_toserver", "est_synack_resend_with_different_ack",
    "est_synack_resend_with_diff_seq", "est_synack_resend", "est_syn_toclient",
    "est_syn_resend", "est_syn_resend_diff_seq", "est_invalid_ack", "est_pkt_before_last_ack",
    "est_packet_out_of_window", "pkt_invalid_ack", "pkt_bad_window_update", "rst_invalid_ack",
    "fin_invalid_ack", "fin_out_of_window", "fin_syn", "pkt_retransmission",
    "shutdown_syn_resend", "fin1_fin_wrong_seq", "fin1_ack_wrong_seq", "fin1_invalid_ack",
    "fin2_fin_wrong_seq", "fin2_ack_wrong_seq", "fin2_invalid_ack", "closing_ack_wrong_seq",
    "closing_invalid_ack", "closewait_fin_out_of_window", "closewait_ack_out_of_window",
    "closewait_pkt_before_last_ack", "closewait_invalid_ack", "lastack_ack_wrong_seq",
    "lastack_invalid_ack", "timewait_ack_wrong_seq", "timewait_invalid_ack",
]
RULES = [rule(f"stream-event:{e};", sid=i + 1) for i, e in enumerate(EVENTS)]
FAR = 100000  # beyond any 64 KiB window


def pkt(c, client, flags, seq, ack, payload=b"", window=65535):
    p = c._pkt(client, flags, payload, seq=seq)
    p["TCP"].ack = ack
    p["TCP"].window = window
    return p


def syn_synack():
    c = Conv()
    c.pkts = [pkt(c, True, "S", 1000, 0), pkt(c, False, "SA", 5000, 1001)]
    return c


def established():
    c = Conv().handshake()  # client next seq 1001, server next seq 5001
    return c


def client_closed():
    """The client's FIN first: Suricata's CLOSE_WAIT (packet 4)."""
    c = established()
    c.pkts.append(pkt(c, True, "FA", 1001, 5001))
    return c


def server_closed():
    """The server's FIN first: Suricata's FIN_WAIT1 (packet 4)."""
    c = established()
    c.pkts.append(pkt(c, False, "FA", 5001, 1001))
    return c


def add(c, *pkts):
    c.pkts.extend(pkts)
    return c.pkts


def case_synack_wrong_ack():
    c = Conv()
    return [pkt(c, True, "S", 1000, 0), pkt(c, False, "SA", 5000, 999),
            pkt(c, False, "SA", 5000, 1001), pkt(c, True, "A", 1001, 5001)]


def case_4whs(seq, ack):
    c = Conv()
    return [pkt(c, True, "S", 1000, 0), pkt(c, False, "S", 5000, 0),
            pkt(c, True, "SA", seq, ack)]


def case_est_synack_diff_ack():
    c = established().send(True, b"hello")  # 4, its ACK 5: the client's last ack is 1006
    return add(c, pkt(c, False, "SA", 5000, 1001))


def case_before_last_ack():
    c = established().send(True, b"hello")
    return add(c, pkt(c, True, "PA", 1001, 5001, b"he"))


def case_closewait_before_last_ack():
    c = established().send(True, b"hello")                      # 4, 5
    return add(c, pkt(c, True, "FA", 1006, 5001), pkt(c, False, "A", 5001, 1007),
               pkt(c, True, "PA", 1001, 5001, b"hello"))        # 6, 7, 8


def last_ack():
    """Both FINs, the server's last: Suricata's LAST_ACK (packet 5)."""
    c = client_closed()
    c.pkts.append(pkt(c, False, "FA", 5001, 1002))
    return c


def time_wait():
    """The server closed first and the client's FIN arrived: TIME_WAIT (packet 5)."""
    c = server_closed()
    c.pkts.append(pkt(c, True, "FA", 1001, 5002))
    return c


def fin_wait2():
    c = server_closed()
    c.pkts.append(pkt(c, True, "A", 1001, 5002))  # 5: the server's FIN acknowledged
    return c


def closing():
    """The FINs crossed: the client's arrives before the server's is acknowledged (5)."""
    c = server_closed()
    c.pkts.append(pkt(c, True, "FA", 1001, 5001))
    return c


CASES = {
    # --- the handshake ---------------------------------------------------------------------
    "synack_with_wrong_ack": (case_synack_wrong_ack, [("3whs_synack_with_wrong_ack", 2)]),
    "synack_toserver_on_syn_recv": (
        lambda: add(syn_synack(), pkt(Conv(), True, "SA", 1000, 5001)),
        [("3whs_synack_toserver_on_syn_recv", 3)]),
    "synack_resend_with_different_ack": (
        lambda: add(syn_synack(), pkt(Conv(), False, "SA", 5000, 1234)),
        [("3whs_synack_resend_with_different_ack", 3)]),
    "synack_with_another_isn_is_queued": (
        lambda: add(syn_synack(), pkt(Conv(), False, "SA", 7777, 1001)), []),
    "synack_flood": (
        lambda: add(syn_synack(), *[pkt(Conv(), False, "SA", 7000 + 1000 * i, 1001)
                                    for i in range(7)]),
        [("3whs_synack_flood", 8), ("3whs_synack_flood", 9)]),
    "syn_toclient_on_syn_recv": (
        lambda: add(syn_synack(), pkt(Conv(), False, "S", 5000, 0)),
        [("3whs_syn_toclient_on_syn_recv", 3)]),
    "syn_resend_diff_seq_on_syn_recv": (
        lambda: add(syn_synack(), pkt(Conv(), True, "S", 3333, 0)),
        [("3whs_syn_resend_diff_seq_on_syn_recv", 3)]),
    "server_ack_before_the_handshakes_passively": (
        lambda: add(syn_synack(), pkt(Conv(), False, "A", 5001, 999)), []),
    "server_goes_on_after_a_lost_handshake_ack": (
        lambda: add(syn_synack(), pkt(Conv(), False, "PA", 5001, 1001, b"220 hi")), []),
    "right_seq_wrong_ack_evasion": (
        lambda: add(syn_synack(), pkt(Conv(), True, "A", 1001, 9999)),
        [("3whs_right_seq_wrong_ack_evasion", 3)]),
    "wrong_seq_wrong_ack": (
        lambda: add(syn_synack(), pkt(Conv(), True, "A", 4000, 9999)),
        [("3whs_wrong_seq_wrong_ack", 3)]),
    "4whs_synack_with_wrong_ack": (lambda: case_4whs(1000, 1234),
                                   [("4whs_synack_with_wrong_ack", 3)]),
    "4whs_synack_with_wrong_syn": (lambda: case_4whs(999, 5001),
                                   [("4whs_synack_with_wrong_syn", 3)]),
    "4whs_right": (lambda: case_4whs(1000, 5001) + [pkt(Conv(), False, "A", 5001, 1001)], []),
    "4whs_wrong_seq": (lambda: case_4whs(1000, 5001) + [pkt(Conv(), False, "A", 5009, 1001)],
                       [("4whs_wrong_seq", 4)]),
    "4whs_invalid_ack": (
        lambda: case_4whs(1000, 5001) + [pkt(Conv(), False, "A", 5001, 1001 + FAR)],
        [("4whs_invalid_ack", 4), ("pkt_invalid_ack", 4)]),
    # --- established ----------------------------------------------------------------------
    "est_synack_toserver": (lambda: add(established(), pkt(Conv(), True, "SA", 1000, 5001)),
                            [("est_synack_toserver", 4)]),
    "est_synack_resend_with_different_ack": (
        case_est_synack_diff_ack, [("est_synack_resend_with_different_ack", 6)]),
    "est_synack_resend_with_diff_seq": (
        lambda: add(established(), pkt(Conv(), False, "SA", 7777, 1001)),
        [("est_synack_resend_with_diff_seq", 4)]),
    "synack_again_before_the_server_spoke": (
        lambda: add(established(), pkt(Conv(), False, "SA", 5000, 1001)), []),
    "est_synack_resend": (
        lambda: add(established(), pkt(Conv(), False, "A", 5001, 1001),
                    pkt(Conv(), False, "SA", 5000, 1001)),
        [("est_synack_resend", 5)]),
    "est_syn_toclient": (lambda: add(established(), pkt(Conv(), False, "S", 5000, 0)),
                         [("est_syn_toclient", 4)]),
    "est_syn_resend": (lambda: add(established(), pkt(Conv(), True, "S", 1000, 0)),
                       [("est_syn_resend", 4)]),
    "est_syn_resend_diff_seq": (lambda: add(established(), pkt(Conv(), True, "S", 777, 0)),
                                [("est_syn_resend_diff_seq", 4)]),
    "est_invalid_ack": (
        lambda: add(established(), pkt(Conv(), True, "PA", 1001, 5001 + FAR, b"x")),
        [("est_invalid_ack", 4), ("pkt_invalid_ack", 4)]),
    "est_pkt_before_last_ack": (case_before_last_ack, [("est_pkt_before_last_ack", 6)]),
    "est_packet_out_of_window": (
        lambda: add(established(), pkt(Conv(), True, "PA", 1001 + FAR, 5001, b"x")),
        [("est_packet_out_of_window", 4)]),
    "keep_alive": (lambda: add(established(), pkt(Conv(), True, "A", 1000, 5001, b"\0")), []),
    "pkt_bad_window_update": (
        lambda: add(established(), pkt(Conv(), False, "A", 5002, 1011, window=1000)),
        [("pkt_bad_window_update", 4)]),
    "window_update": (
        lambda: add(established(), pkt(Conv(), False, "A", 5001, 1001, window=1000)), []),
    "rst_invalid_ack": (lambda: add(established(), pkt(Conv(), False, "RA", 5001, 1001 + FAR)),
                        [("rst_invalid_ack", 4), ("pkt_invalid_ack", 4)]),
    "fin_invalid_ack": (lambda: add(established(), pkt(Conv(), True, "FA", 1001, 5001 + FAR)),
                        [("fin_invalid_ack", 4), ("pkt_invalid_ack", 4)]),
    "fin_out_of_window": (
        lambda: add(established(), pkt(Conv(), True, "FA", 1001 + FAR, 5001)),
        [("fin_out_of_window", 4)]),
    "fin_syn": (lambda: add(established(), pkt(Conv(), True, "FSA", 1001, 5001)),
                [("fin_syn", 4)]),
    "ordinary_close": (lambda: established().send(True, b"hi").send(False, b"ho").close().pkts,
                       []),
    "server_closes_first": (
        lambda: add(server_closed(), pkt(Conv(), True, "FA", 1001, 5002),
                    pkt(Conv(), False, "A", 5002, 1002)), []),
    # --- FIN_WAIT1 / FIN_WAIT2 / CLOSING (the server's FIN first) ---------------------------
    "fin1_fin_wrong_seq": (
        lambda: add(server_closed(), pkt(Conv(), True, "FA", 1001 + FAR, 5002)),
        [("fin1_fin_wrong_seq", 5)]),
    "fin1_ack_wrong_seq": (
        lambda: add(server_closed(), pkt(Conv(), True, "PA", 1001 + FAR, 5002, b"x")),
        [("fin1_ack_wrong_seq", 5)]),
    "fin1_invalid_ack": (
        lambda: add(server_closed(), pkt(Conv(), True, "A", 1001, 5002 + FAR)),
        [("fin1_invalid_ack", 5), ("pkt_invalid_ack", 5)]),
    "fin2_fin_wrong_seq": (
        lambda: add(fin_wait2(), pkt(Conv(), True, "FA", 1001 + FAR, 5002)),
        [("fin2_fin_wrong_seq", 6)]),
    "fin2_ack_wrong_seq": (
        lambda: add(fin_wait2(), pkt(Conv(), True, "PA", 1001 + FAR, 5002, b"x")),
        [("fin2_ack_wrong_seq", 6)]),
    "fin2_invalid_ack": (
        lambda: add(fin_wait2(), pkt(Conv(), True, "A", 1001, 5002 + FAR)),
        [("fin2_invalid_ack", 6), ("pkt_invalid_ack", 6)]),
    "closing_ack_wrong_seq": (
        lambda: add(closing(), pkt(Conv(), True, "A", 1010, 5002)),
        [("closing_ack_wrong_seq", 6)]),
    "closing_invalid_ack": (
        lambda: add(closing(), pkt(Conv(), True, "A", 1002, 5002 + FAR)),
        [("closing_invalid_ack", 6), ("pkt_invalid_ack", 6)]),
    "shutdown_syn_resend": (lambda: add(server_closed(), pkt(Conv(), True, "S", 1000, 0)),
                            [("shutdown_syn_resend", 5)]),
    # --- CLOSE_WAIT / LAST_ACK (the client's FIN first), TIME_WAIT --------------------------
    "closewait_fin_out_of_window": (
        lambda: add(client_closed(), pkt(Conv(), False, "FA", 5001 + FAR, 1002)),
        [("closewait_fin_out_of_window", 5)]),
    "closewait_invalid_ack": (
        lambda: add(client_closed(), pkt(Conv(), False, "FA", 5001, 1002 + FAR)),
        [("closewait_invalid_ack", 5), ("pkt_invalid_ack", 5)]),
    "closewait_ack_out_of_window": (
        lambda: add(client_closed(), pkt(Conv(), False, "A", 5001 + FAR, 1002)),
        [("closewait_ack_out_of_window", 5)]),
    "closewait_pkt_before_last_ack": (
        case_closewait_before_last_ack,
        [("closewait_pkt_before_last_ack", 8), ("pkt_retransmission", 8)]),
    "lastack_ack_wrong_seq": (
        lambda: add(last_ack(), pkt(Conv(), True, "A", 1502, 5002)),
        [("lastack_ack_wrong_seq", 6)]),
    "lastack_invalid_ack": (
        lambda: add(last_ack(), pkt(Conv(), True, "A", 1002, 5002 + FAR)),
        [("lastack_invalid_ack", 6), ("pkt_invalid_ack", 6)]),
    "timewait_ack_wrong_seq": (
        lambda: add(time_wait(), pkt(Conv(), False, "A", 5502, 1002)),
        [("timewait_ack_wrong_seq", 6)]),
    "timewait_invalid_ack": (
        lambda: add(time_wait(), pkt(Conv(), False, "A", 5002, 1002 + FAR)),
        [("timewait_invalid_ack", 6), ("pkt_invalid_ack", 6)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_stream_event(tmp_path, name):
    build, want = CASES[name]
    r = detect(tmp_path, build(), RULES)
    got = sorted((EVENTS[a["alert"]["signature_id"] - 1], a["pcap_cnt"]) for a in r.alerts)
    assert got == sorted(want)


def test_async_wrong_seq(tmp_path):
    # one direction captured (stream.async-oneside): the client's ACK after its SYN must be
    # at ISN+1; the right one raises nothing
    c = Conv()
    pkts = [pkt(c, True, "S", 1000, 0), pkt(c, True, "A", 1001, 5001),
            pkt(c, True, "PA", 1500, 5001, b"x")]
    r = detect(tmp_path, pkts[:2], RULES, "--set", "stream.async-oneside=true", name="right")
    assert r.alerts == []
    r = detect(tmp_path, [pkts[0], pkts[2]], RULES, "--set", "stream.async-oneside=true")
    assert sorted((EVENTS[a["alert"]["signature_id"] - 1], a["pcap_cnt"])
                  for a in r.alerts) == [("3whs_async_wrong_seq", 2)]


@pytest.mark.parametrize("ips,want", [(False, []), (True, [("3whs_ack_in_wrong_dir", 3),
                                                           ("3whs_ack_data_inject", 4)])])
def test_server_packets_before_the_handshakes_ack(tmp_path, ips, want):
    # passively the handshake's ACK may have been missed; in IPS mode it would have passed
    # through us: a server ACK then is the wrong way, server data an injection
    c = syn_synack()
    pkts = add(c, pkt(c, False, "A", 5001, 999), pkt(c, False, "PA", 5001, 1001, b"evil"))
    r = detect(tmp_path, pkts, RULES, *(["--simulate-ips"] if ips else []))
    got = sorted((EVENTS[a["alert"]["signature_id"] - 1], a["pcap_cnt"]) for a in r.alerts)
    assert got == sorted(want)
