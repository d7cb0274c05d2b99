"""A finalization a stopped server left half done, for tests/acme_cli.rs: an order made
ready (http-01 answered on 127.0.0.1:HTTP_PORT) is set in ACME_DB to what a server that
stopped between claiming it and issuing leaves (processing, claimed long ago, no
certificate); the next look at it must find it invalid, not processing for ever.

    abandoned.py DIRECTORY_URL CA_PEM HTTP_PORT ACME_DB

Prints the order as the server then answers it, as JSON.
"""

import json
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acmeclient as a  # noqa: E402

DIRECTORY, CA_PEM, HTTP_PORT, ACME_DB = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
a.connect(DIRECTORY, CA_PEM)
a.serve_answers(HTTP_PORT)
key = a.new_key()
kid = a.post(key, a.DIR["newAccount"], {"termsOfServiceAgreed": True})[1]["Location"]
order_url, order = a.new_order(key, kid, [{"type": "dns", "value": "localhost"}])
a.http01(key, kid, order["authorizations"][0])
order_id = int(order_url.rsplit("/", 1)[1])
db = sqlite3.connect(ACME_DB, timeout=30)
with db:
    db.execute("UPDATE orders SET status = 'processing', claimed = 1 WHERE id = ?", (order_id,))
db.close()
print(json.dumps(json.loads(a.post(key, order_url, None, kid)[2])))
