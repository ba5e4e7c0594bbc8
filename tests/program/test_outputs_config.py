"""The outputs: section in suricata.yaml's layout (a list of one-key maps), read as
outputs.<name>.<key>, and what a wrong shape there says."""
from test_config import dump, load_fails


def test_outputs_list_of_maps_as_in_suricata_yaml(tmp_path):
    cfg = dump(tmp_path, """\
outputs:
  - fast:
      enabled: no
  - eve-log:
      filetype: unix_dgram
      filename: /run/eve.sock
      types: [alert, flow]
  - unified2-alert:
      limit: 1mb
stats:
  interval: 30
geoip-database: /usr/share/GeoIP/GeoLite2-City.mmdb
""")
    assert cfg["outputs.fast.enabled"] is False
    assert cfg["outputs.fast.filename"] == "fast.log"  # what the item leaves out: default
    assert cfg["outputs.eve-log.filetype"] == "unix_dgram"
    assert cfg["outputs.eve-log.filename"] == "/run/eve.sock"
    assert cfg["outputs.eve-log.types"] == ["alert", "flow"]
    assert cfg["outputs.unified2-alert.limit"] == 1024 * 1024
    assert cfg["stats.interval"] == 30
    assert cfg["geoip-database"] == "/usr/share/GeoIP/GeoLite2-City.mmdb"


def test_outputs_as_a_map_works_too(tmp_path):
    # --dump-config prints the section as a map; reading that back gives the same
    cfg = dump(tmp_path, "outputs:\n  fast:\n    filename: alerts.txt\n")
    assert cfg["outputs.fast.filename"] == "alerts.txt"


def test_outputs_bad_shapes(tmp_path):
    assert load_fails(tmp_path, "outputs:\n  - fast\n") == \
        "F:2: outputs: expected a map, got a list\n"
    assert load_fails(tmp_path, "outputs:\n  - eve-log:\n      filetype: carrier-pigeon\n") == \
        "F:3: outputs.eve-log.filetype: expected one of regular, unix_stream, unix_dgram, " \
        "redis, kafka, syslog, got 'carrier-pigeon'\n"


def test_eve_types_with_suricata_options(tmp_path):
    # a suricata.yaml eve-log section: types with options below them keep their names
    cfg = dump(tmp_path, """\
outputs:
  - eve-log:
      types:
        - alert:
            tagged-packets: yes
        - flow
        - stats:
            totals: yes
            threads: no
""")
    assert cfg["outputs.eve-log.types"] == ["alert", "flow", "stats"]
