"""The mail, file-transfer and Windows parsers on the corpus's real captures (issue 15): what
each capture holds, read back from the EVE records Osprey writes (each valid against Suricata's
EVE schema) and from rules on their buffers — Zeek's SMTP and SMB2 test captures, a mail with
an attachment, a portmap conversation (sunrpc). tests/parsers/test_parsers_corpus.py runs every
capture of the corpus for crashes and consistency; this file asserts contents."""
import json

import pytest
from jsonschema import Draft7Validator

from conftest import CORPUS, ROOT, binary
from detect_helpers import rule
from outputs_helpers import Out, run

PCAPS = CORPUS / "pcaps"
SCHEMA = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                     "eve-schema.json").read_text()))


def eve(tmp_path, pcap, types, rules=()):
    if not pcap.exists():
        pytest.fail(f"the corpus capture {pcap} is missing")
    rf = tmp_path / "r.rules"
    rf.write_text("\n".join(rules) + "\n")
    log = tmp_path / "log"
    log.mkdir()
    proc = run([binary("osprey"), "-r", str(pcap), "-S", str(rf), "-l", str(log), "-k", "none",
                "--set", f"outputs.eve-log.types=[{','.join(types)}]"])
    out = Out(proc, log)
    for r in out.records:
        assert not list(SCHEMA.iter_errors(r)), r
    return out


def test_zeek_smtp_capture(tmp_path):
    rules = [rule('smtp.helo; content:"GP"; bsize:2;', sid=1, proto="smtp"),
             rule('email.subject; content:"SMTP"; bsize:4;', sid=2, proto="smtp"),
             rule('file.name; content:"NEWS.txt";', sid=3, proto="smtp"),
             rule('smtp.rcpt_to; content:"davis_mark1@outlook.com";', sid=4, proto="smtp")]
    out = eve(tmp_path, PCAPS / "misc" / "zeek__smtp.pcap", ["alert", "smtp", "files"], rules)
    assert sorted({a["alert"]["signature_id"] for a in out.of("alert")}) == [1, 2, 3, 4]
    txs = [r["smtp"] for r in out.of("smtp")]
    assert [(t["helo"], t["mail_from"], len(t["rcpt_to"])) for t in txs] == [
        ("GP", "<gurpartap@patriots.in>", 1),
        ("[192.168.133.100]", "<albert@example.com>", 3)]
    (first,) = [r["email"] for r in out.of("smtp") if r["smtp"]["helo"] == "GP"]
    assert (first["status"], first["subject"], first["x_mailer"]) == (
        "PARSE_DONE", "SMTP", "Microsoft Office Outlook 12.0")
    files = [r["fileinfo"] for r in out.of("fileinfo")]
    assert ("NEWS.txt", "CLOSED", 10807) in [(f["filename"], f["state"], f["size"])
                                              for f in files]


def test_mail_with_an_attachment_cut_short(tmp_path):
    out = eve(tmp_path, PCAPS / "misc" / "cs__mail_sender_attachment.pcapng", ["smtp"])
    (r,) = out.of("smtp")
    assert (r["smtp"]["mail_from"], r["smtp"]["rcpt_to"]) == ("<sanders@skynet.local>",
                                                              ["<ppa@skynet.local>"])
    assert r["email"]["status"] == "BODY_STARTED"  # the capture ends inside the message


def test_zeek_smb2_capture(tmp_path):
    rules = [rule('smb.ntlmssp_user; content:"Administrator";', sid=1, proto="smb"),
             rule('smb.ntlmssp_domain; content:"CONTOSO";', sid=2, proto="smb"),
             rule('smb.share; content:"smb2"; endswith;', sid=3, proto="smb"),
             rule('smb.named_pipe; content:"IPC$"; endswith;', sid=4, proto="smb"),
             rule("dcerpc.iface:4b324fc8-1670-01d3-1278-5a47bf6ee188;", sid=5, proto="smb")]
    out = eve(tmp_path, PCAPS / "misc" / "zeek__smb__smb2.pcap", ["alert", "smb"], rules)
    assert sorted({a["alert"]["signature_id"] for a in out.of("alert")}) == [1, 2, 3, 4, 5]
    recs = [r["smb"] for r in out.of("smb")]
    assert {r["dialect"] for r in recs} == {"2.02"}
    (setup,) = [r for r in recs if "ntlmssp" in r]
    assert setup["ntlmssp"] == {"domain": "CONTOSO", "user": "Administrator", "host": "SERVER01"}
    assert "\\\\10.0.0.12\\smb2" in [r.get("share") for r in recs]
    pipe = [r for r in recs if r.get("filename") == "srvsvc" and "dcerpc" in r]
    assert pipe and pipe[0]["dcerpc"]["request"] == "BIND"


def test_portmap_capture_is_sunrpc(tmp_path):
    out = eve(tmp_path, PCAPS / "malware-exploit" / "zeek__rpc-portmap-sadmind.pcap", ["flow"])
    flows = [(f.get("app_proto"), f["dest_port"]) for f in out.of("flow")]
    assert flows.count(("sunrpc", 111)) == 13
