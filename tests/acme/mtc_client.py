"""An ACME client that orders Merkle Tree Certificates, for tests/acme_cli.rs: three
orders for localhost (http-01 answered on 127.0.0.1:HTTP_PORT), finalized, polled while
they are processing, their standalone certificates downloaded, then the last one's
certificate URL polled until the landmark-relative certificate appears as a
Link rel="alternate", which it downloads; and that certificate's revocation refused.

    mtc_client.py DIRECTORY_URL CA_PEM HTTP_PORT OUT_DIR

Writes OUT_DIR/standalone-{0,1,2}.pem and OUT_DIR/landmark.pem and prints one JSON object per
step ({"step", ...}).
"""

import json
import os
import ssl
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acmeclient as a  # noqa: E402

DIRECTORY, CA_PEM, HTTP_PORT, OUT = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
LIMIT = 60
ORDERS = 3


def step(name, **what):
    print(json.dumps(dict(step=name, **what)), flush=True)


def main():
    a.connect(DIRECTORY, CA_PEM)
    a.serve_answers(HTTP_PORT)
    key = a.new_key()
    kid = a.post(key, a.DIR["newAccount"], {"termsOfServiceAgreed": True})[1]["Location"]
    # ORDERS orders, all finalized before any is polled, so that one checkpoint covers
    # several entries and their proofs have hashes in them.
    orders = []
    for _ in range(ORDERS):
        order_url, order = a.new_order(key, kid, [{"type": "dns", "value": "localhost"}])
        z = a.http01(key, kid, order["authorizations"][0])
        status, headers, body = a.post(key, order["finalize"], {"csr": a.csr_for(["localhost"])}, kid)
        o = json.loads(body)
        step("finalized", status=status, order=o["status"], retry_after=headers.get("Retry-After"),
             authz=z["status"])
        orders.append((order_url, o, headers))
    deadline = time.time() + LIMIT
    certs = []
    for i, (order_url, o, headers) in enumerate(orders):
        polls = 0
        while o["status"] == "processing" and time.time() < deadline:
            time.sleep(min(int(headers.get("Retry-After") or 1), 2))
            status, headers, body = a.post(key, order_url, None, kid)
            o = json.loads(body)
            polls += 1
        step("order", order=o["status"], polls=polls, certificate=o.get("certificate"))
        status, headers, chain = a.post(key, o["certificate"], None, kid)
        with open(os.path.join(OUT, f"standalone-{i}.pem"), "wb") as f:
            f.write(chain)
        step("standalone", status=status, content_type=headers.get("Content-Type"),
             alternates=a.links(headers, "alternate"))
        certs.append((o["certificate"], chain))
    url, chain = certs[-1]
    # The landmark-relative certificate: an alternate once a landmark covers the entry.
    alternates, polls = [], 0
    while not alternates and time.time() < deadline:
        time.sleep(1)
        status, headers, _ = a.post(key, url, None, kid)
        alternates = a.links(headers, "alternate")
        polls += 1
    step("alternate", alternates=alternates, polls=polls)
    if not alternates:
        sys.exit(f"no landmark-relative alternate within {LIMIT} s")
    status, headers, body = a.post(key, alternates[0], None, kid)
    with open(os.path.join(OUT, "landmark.pem"), "wb") as f:
        f.write(body)
    step("landmark", status=status, content_type=headers.get("Content-Type"),
         alternates=a.links(headers, "alternate"))
    # An MTC certificate is not revoked one by one.
    leaf = chain.decode().split("-----END CERTIFICATE-----")[0] + "-----END CERTIFICATE-----\n"
    der = a.b64(ssl.PEM_cert_to_DER_cert(leaf))
    status, _, body = a.post(key, a.DIR["revokeCert"], {"certificate": der}, kid)
    doc = json.loads(body) if body else {}
    step("revoke", status=status, type=doc.get("type"), detail=doc.get("detail"))


main()
