"""pyca/cryptography's Web PKI verifier as a peer of `pkit verify` in the tests: reads
DIR/manifest.json (make_chains.py) and prints one JSON line per case with its verdict.

    python3 pyca_verify.py DIR
"""

import datetime
import ipaddress
import json
import os
import sys

from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store


def load(d, name):
    with open(os.path.join(d, name), "rb") as f:
        return x509.load_pem_x509_certificate(f.read())


def verdict(d, at, c):
    try:
        root = load(d, c["root"])
        leaf = load(d, c["leaf"])
        inters = [load(d, n) for n in c["intermediates"]]
        if "ip" in c:
            subject = x509.IPAddress(ipaddress.ip_address(c["ip"]))
        else:
            subject = x509.DNSName(c["hostname"])
        v = PolicyBuilder().store(Store([root])).time(at).build_server_verifier(subject)
        v.verify(leaf, inters)
        return {"id": c["id"], "ok": True}
    except Exception as e:  # a refusal, or a certificate pyca cannot even load
        return {"id": c["id"], "ok": False, "error": f"{type(e).__name__}: {e}"}


def main():
    d = sys.argv[1]
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    at = datetime.datetime.fromtimestamp(m["time"], datetime.timezone.utc)
    for c in m["cases"]:
        print(json.dumps(verdict(d, at, c)))


main()
