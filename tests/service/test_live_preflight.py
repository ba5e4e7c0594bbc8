"""osprey --preflight: one ok/FIX line per check, exit 0 only when all pass."""
from conftest import binary, run
from netns_helpers import netns, sh, unique, veth_pair


def preflight(ns, *args, cfg_sets=()):
    cmd = ["ip", "netns", "exec", ns, binary("osprey"), "--preflight", *args]
    for s in cfg_sets:
        cmd += ["--set", s]
    return run(cmd, check=False)


def lines(p, kind):
    return [l for l in p.stdout.splitlines() if l.startswith(kind + ": ")]


def test_preflight_reports_gro_and_passes_once_fixed():
    with netns() as ns, veth_pair(ns, ns) as (a, b):
        sh("ethtool", "-K", a, "gro", "on", ns=ns)
        p = preflight(ns, "-i", a)
        assert p.returncode == 1
        assert lines(p, "FIX") == [f"FIX: {a}: generic-receive-offload is on: the kernel merges "
                                   f"TCP segments before osprey sees them (ethtool -K {a} gro off)"]
        assert f"ok: {a} is up" in p.stdout and "ok: permission to capture (AF_PACKET socket)" in p.stdout
        sh("ethtool", "-K", a, "gro", "off", ns=ns)
        p = preflight(ns, "-i", a)
        assert p.returncode == 0, p.stdout
        assert lines(p, "FIX") == [] and p.stdout.rstrip().endswith("preflight: all ok")
        assert f"ok: {a}: generic-receive-offload is off" in p.stdout


def test_preflight_interface_problems():
    missing = unique("nox")
    with netns() as ns, veth_pair(ns, ns) as (a, b):
        sh("ip", "link", "set", a, "down", ns=ns)
        p = preflight(ns, "-i", a, "-i", missing, cfg_sets=["af-packet.promisc=no"])
        assert p.returncode == 1
        fixes = lines(p, "FIX")
        assert f"FIX: {a} is down: ip link set {a} up" in fixes
        assert f"FIX: {missing}: no such interface (ip link show lists them)" in fixes
        assert any(l.startswith(f"FIX: {a} is not promiscuous") for l in fixes)


def test_preflight_inline_pair():
    with netns() as ns, veth_pair(ns, ns) as (a, a2), veth_pair(ns, ns) as (b, b2):
        sh("sysctl", "-qw", "net.ipv4.ip_forward=0", ns=ns)
        p = preflight(ns, "--af-packet-inline", f"{a}:{b}")
        assert p.returncode == 0, p.stdout
        assert f"ok: {a} and {b} have the same MTU" in p.stdout
        assert "ok: IP forwarding is off (osprey bridges the two interfaces itself)" in p.stdout
        # now everything users get wrong with a bridge pair
        sh("ip", "link", "set", b, "mtu", "1400", ns=ns)
        sh("sysctl", "-qw", "net.ipv4.ip_forward=1", ns=ns)
        br = unique("obr")
        sh("ip", "link", "add", br, "type", "bridge", ns=ns)
        sh("ip", "link", "set", a, "master", br, ns=ns)
        p = preflight(ns, "--af-packet-inline", f"{a}:{b}")
        assert p.returncode == 1
        fixes = lines(p, "FIX")
        assert len(fixes) == 3, p.stdout
        assert fixes[0].startswith(f"FIX: {a} is a port of a kernel bridge")
        assert fixes[1].startswith(f"FIX: {a} and {b} have different MTUs")
        assert fixes[2].startswith("FIX: IP forwarding is on")


def test_preflight_inline_reports_offloads_without_demanding_them_off():
    """Inline forwards frames with their offload metadata: GRO and the checksum/segmentation
    offloads on the bridged veths are reported, not FIXes (with -i, GRO still is one)."""
    with netns() as ns, veth_pair(ns, ns) as (a, a2), veth_pair(ns, ns) as (b, b2):
        sh("sysctl", "-qw", "net.ipv4.ip_forward=0", ns=ns)
        sh("ethtool", "-K", a, "gro", "on", ns=ns)
        p = preflight(ns, "--af-packet-inline", f"{a}:{b}")
        assert p.returncode == 0, p.stdout
        assert lines(p, "FIX") == []
        ok = lines(p, "ok")
        assert f"ok: {a}: generic-receive-offload is on: merged segments are forwarded with " \
               f"their offload metadata and cut again on the way out" in ok
        assert any(l.startswith(f"ok: {b}: tx-checksumming on, tcp-segmentation-offload on")
                   for l in ok), p.stdout
        assert any(l.startswith("ok: offload metadata (PACKET_VNET_HDR)") for l in ok), p.stdout
        assert lines(preflight(ns, "-i", a), "FIX")[0].startswith(
            f"FIX: {a}: generic-receive-offload is on")


def test_preflight_needs_a_mode():
    p = run([binary("osprey"), "--preflight"], check=False)
    assert p.returncode == 2 and "--preflight checks a set-up" in p.stderr


def test_preflight_dpdk_configuration():
    p = run([binary("osprey"), "--preflight", "--dpdk"], check=False)
    assert p.returncode == 1
    fixes = [l for l in p.stdout.splitlines() if l.startswith("FIX: ")]
    assert fixes[0].startswith("FIX: dpdk.eal-args is empty")
    assert fixes[1].startswith("FIX: dpdk.interfaces is empty")
    p = run([binary("osprey"), "--preflight", "--dpdk",
             "--set", "dpdk.eal-args=[--no-huge,--no-pci,-m,256,--vdev=net_null0,--vdev=net_null1]",
             "--set", "dpdk.interfaces=[net_null0:net_null1]"], check=False)
    assert p.returncode == 0, p.stdout
    assert "ok: dpdk.eal-args: 6 arguments" in p.stdout
    assert "ok: hugepages not needed (--no-huge)" in p.stdout


def test_preflight_dpdk_af_packet_on_veths_at_default_offloads():
    """DPDK's af_packet driver has no offload metadata: on a veth at its default offloads
    --preflight says so (and what to do); with the offloads off it is fine."""
    with netns() as ns, veth_pair(ns, ns) as (a, b):
        sets = [f"dpdk.eal-args=[--no-huge,--no-pci,-m,256,--vdev=net_af_packet0,iface={a},"
                "--vdev=net_null1]", "dpdk.interfaces=[net_af_packet0:net_null1]"]
        p = preflight(ns, "--dpdk", cfg_sets=sets)
        fixes = lines(p, "FIX")
        assert any(l.startswith(f"FIX: net_af_packet0: {a} is a veth with checksum offload on")
                   for l in fixes), p.stdout
        assert p.returncode == 1
        sh("ethtool", "-K", a, "tx", "off", "tso", "off", "gso", "off", ns=ns)
        p = preflight(ns, "--dpdk", cfg_sets=sets)
        assert lines(p, "FIX") == [], p.stdout
        assert p.returncode == 0
