"""A small ACME client (RFC 8555) the test scripts beside it share: JWS requests signed
with P-256 account keys, an http-01 answer server, orders and authorizations.

    import acmeclient as a
    a.connect(DIRECTORY_URL, CA_PEM)   # then a.DIR holds the directory
    key = a.new_key(); kid = a.post(key, a.DIR["newAccount"], {...})[1]["Location"]

Needs Python's `cryptography`. Talks to the URLs it is given and serves http-01 answers
on 127.0.0.1 only.
"""

import base64
import http.server
import json
import ssl
import threading
import time
import urllib.error
import urllib.request

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

# The directory of the server connect() named (updated in place, so that
# `from acmeclient import DIR` sees it).
DIR = {}
_CTX = [None]
TOKENS = {}


def connect(directory, ca_pem):
    _CTX[0] = ssl.create_default_context(cafile=ca_pem)
    DIR.clear()
    DIR.update(json.loads(request(directory)[2]))


def b64(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def new_key():
    return ec.generate_private_key(ec.SECP256R1())


def jwk(key):
    n = key.public_key().public_numbers()
    return {"crv": "P-256", "kty": "EC", "x": b64(n.x.to_bytes(32, "big")), "y": b64(n.y.to_bytes(32, "big"))}


def thumbprint(key):
    j = jwk(key)
    canon = json.dumps({k: j[k] for k in sorted(j)}, separators=(",", ":")).encode()
    h = hashes.Hash(hashes.SHA256())
    h.update(canon)
    return b64(h.finalize())


def request(url, body=None, method=None):
    """(status, headers, body) of one request; HTTP errors are answers too."""
    req = urllib.request.Request(url, data=body, method=method)
    if body is not None:
        req.add_header("Content-Type", "application/jose+json")
    try:
        with urllib.request.urlopen(req, context=_CTX[0], timeout=30) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def nonce():
    return request(DIR["newNonce"], method="HEAD")[1]["Replay-Nonce"]


def jws(key, url, payload, kid=None, use_nonce=None, header_url=None):
    """A flattened JWS (ES256) of `payload` (None: POST-as-GET) for `url`."""
    protected = {"alg": "ES256", "nonce": use_nonce or nonce(), "url": header_url or url}
    if kid:
        protected["kid"] = kid
    else:
        protected["jwk"] = jwk(key)
    p = b64(json.dumps(protected).encode())
    pl = "" if payload is None else b64(json.dumps(payload).encode())
    der = key.sign(f"{p}.{pl}".encode(), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    sig = b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
    return json.dumps({"protected": p, "payload": pl, "signature": sig}).encode()


def post(key, url, payload, kid=None, **kw):
    return request(url, jws(key, url, payload, kid, **kw))


def links(headers, rel):
    """The URLs of the Link headers of relation `rel`."""
    out = []
    for value in headers.get_all("Link") or []:
        for part in value.split(","):
            target, _, params = part.strip().partition(";")
            if f'rel="{rel}"' in params.replace(" ", ""):
                out.append(target.strip().strip("<>"))
    return out


class _Answers(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        token = self.path.rsplit("/", 1)[-1]
        body = TOKENS.get(token, "").encode()
        self.send_response(200 if body else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


def serve_answers(port):
    """Answer http-01 challenges on 127.0.0.1:port from TOKENS."""
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), _Answers)
    threading.Thread(target=srv.serve_forever, daemon=True).start()


def new_order(key, kid, identifiers, **more):
    payload = {"identifiers": identifiers}
    payload.update(more)
    status, headers, body = post(key, DIR["newOrder"], payload, kid)
    return headers.get("Location"), json.loads(body)


def wait_authz(key, kid, url, until=("valid", "invalid"), limit=30):
    deadline = time.time() + limit
    while True:
        z = json.loads(post(key, url, None, kid)[2])
        if z["status"] in until or time.time() > deadline:
            return z
        time.sleep(0.3)


def http01(key, kid, authz_url):
    z = json.loads(post(key, authz_url, None, kid)[2])
    ch = next(c for c in z["challenges"] if c["type"] == "http-01")
    TOKENS[ch["token"]] = f"{ch['token']}.{thumbprint(key)}"
    post(key, ch["url"], {}, kid)
    return wait_authz(key, kid, authz_url)


def csr_for(names, key=None):
    """A base64url DER CSR for DNS `names` (the key: a fresh P-256 one by default)."""
    k = key or new_key()
    b = x509.CertificateSigningRequestBuilder().subject_name(x509.Name([]))
    b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in names]), critical=False)
    return b64(b.sign(k, hashes.SHA256()).public_bytes(serialization.Encoding.DER))
