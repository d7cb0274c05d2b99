"""An ACME client that misbehaves on purpose, for tests/acme_cli.rs: each scenario
sends what a broken or hostile client would and prints what the server answered, one
JSON object per line ({"scenario", "status", "type", "detail", ...}).

    hostile_client.py DIRECTORY_URL CA_PEM HTTP_PORT TLS_PORT [OTHER_DIRECTORY_URL]

With OTHER_DIRECTORY_URL (a second server on the same CA), a nonce from the first is
spent at the second, and the first refuses it afterwards.

Needs Python's `cryptography`. Talks to 127.0.0.1 only: the challenge targets it starts
are on 127.0.0.1 (answers), 127.0.0.2 (accepts and never answers) and 127.0.0.3 (sends
without end) at HTTP_PORT, and 127.0.0.4 at TLS_PORT (a tls-alpn-01 answer that is right
but for the protocol: it negotiates no ALPN).
"""

import json
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from acmeclient import DIR, b64, connect, csr_for, http01, jws, new_order, nonce, post, request, serve_answers, thumbprint, wait_authz  # noqa: E402
from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.x509.oid import NameOID  # noqa: E402

DIRECTORY, CA_PEM, HTTP_PORT, TLS_PORT = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
OTHER = sys.argv[5] if len(sys.argv) > 5 else None
connect(DIRECTORY, CA_PEM)


def report(scenario, resp, **more):
    status, headers, body = resp
    try:
        doc = json.loads(body) if body else {}
    except ValueError:
        doc = {}
    out = {"scenario": scenario, "status": status, "content_type": headers.get("Content-Type"),
           "type": doc.get("type"), "detail": doc.get("detail")}
    out.update(more)
    print(json.dumps(out), flush=True)
    return doc


def serve_hang():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.2", HTTP_PORT))
    s.listen(8)
    held = []

    def loop():
        while True:
            c, _ = s.accept()
            held.append(c)  # read nothing, answer nothing

    threading.Thread(target=loop, daemon=True).start()


def serve_flood():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.3", HTTP_PORT))
    s.listen(8)

    def one(c):
        try:
            c.recv(4096)
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\n")
            chunk = b"x" * 65536
            for _ in range(16384):  # 1 GiB, if the server read it all
                c.sendall(chunk)
        except OSError:
            pass
        finally:
            c.close()

    def loop():
        while True:
            c, _ = s.accept()
            threading.Thread(target=one, args=(c,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()


def serve_without_alpn(key, token, ip):
    """A tls-alpn-01 answer on ip:TLS_PORT that is right in every way but one: the
    handshake negotiates no ALPN protocol (RFC 8737 §3 wants acme-tls/1)."""
    import datetime
    import hashlib
    import ipaddress
    import ssl
    import tempfile
    k = ec.generate_private_key(ec.SECP256R1())
    digest = hashlib.sha256(f"{token}.{thumbprint(key)}".encode()).digest()
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(x509.Name([])).issuer_name(x509.Name([]))
            .public_key(k.public_key()).serial_number(1)
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(ip))]), critical=True)
            .add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier("1.3.6.1.5.5.7.1.31"),
                                                      b"\x04\x20" + digest), critical=True)
            .sign(k, hashes.SHA256()))
    d = tempfile.mkdtemp()
    with open(f"{d}/c.pem", "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
        f.write(k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(f"{d}/c.pem")
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((ip, TLS_PORT))
    s.listen(8)

    def loop():
        while True:
            c, _ = s.accept()
            try:
                ctx.wrap_socket(c, server_side=True).close()
            except OSError:
                c.close()

    threading.Thread(target=loop, daemon=True).start()


def across_servers():
    other = json.loads(request(OTHER)[2])
    a = ec.generate_private_key(ec.SECP256R1())
    n = nonce()
    url = other["newAccount"]
    report("nonce_from_first_at_second", request(url, jws(a, url, {"termsOfServiceAgreed": True}, use_nonce=n)))
    url = DIR["newAccount"]
    report("same_nonce_back_at_first", request(url, jws(a, url, {"onlyReturnExisting": True}, use_nonce=n)))
    report("account_from_second_at_first", post(a, url, {"onlyReturnExisting": True}))


def main():
    if OTHER:
        return across_servers()
    serve_answers(HTTP_PORT)
    serve_hang()
    serve_flood()
    a = ec.generate_private_key(ec.SECP256R1())
    b = ec.generate_private_key(ec.SECP256R1())
    resp = post(a, DIR["newAccount"], {"termsOfServiceAgreed": True})
    kid = resp[1]["Location"]
    report("new_account", resp)
    # The same nonce twice: the second is refused.
    n = nonce()
    report("nonce_first_use", request(DIR["newOrder"], jws(a, DIR["newOrder"], {"identifiers": [{"type": "dns", "value": "localhost"}]}, kid, use_nonce=n)))
    report("nonce_replayed", request(DIR["newOrder"], jws(a, DIR["newOrder"], {"identifiers": [{"type": "dns", "value": "localhost"}]}, kid, use_nonce=n)))
    report("nonce_made_up", request(DIR["newOrder"], jws(a, DIR["newOrder"], {}, kid, use_nonce="AAAAAAAAAAAAAAAAAAAAAA")))
    # A JWS for another URL than the one it is posted to.
    report("wrong_url", request(DIR["newOrder"], jws(a, DIR["newOrder"], {}, kid, header_url=DIR["newAccount"])))
    # Account A's kid, key B's signature.
    report("not_the_accounts_key", post(b, DIR["newOrder"], {"identifiers": [{"type": "dns", "value": "localhost"}]}, kid))
    # A jwk where an account is wanted, and no JWS at all.
    report("jwk_for_order", post(b, DIR["newOrder"], {"identifiers": []}))
    report("not_jose", request(DIR["newOrder"], b"{}"))
    report("only_existing", post(b, DIR["newAccount"], {"onlyReturnExisting": True}))
    report("bad_identifier", post(a, DIR["newOrder"], {"identifiers": [{"type": "dns", "value": "a..b"}]}, kid))
    # An order for localhost, validated, finalized with a CSR for other names.
    order_url, order = new_order(a, kid, [{"type": "dns", "value": "localhost"}])
    z = http01(a, kid, order["authorizations"][0])
    report("http01_valid", (200, {}, json.dumps({}).encode()), authz=z["status"])
    bad = report("csr_other_names", post(a, order["finalize"], {"csr": csr_for(["other.example"])}, kid))
    o = json.loads(post(a, order_url, None, kid)[2])
    report("order_after_bad_csr", (200, {}, b""), order=o["status"], certificate=o.get("certificate"))
    # Finalized properly it gives a certificate; a forged one with its serial and another
    # key cannot revoke it, its account can, once.
    k = ec.generate_private_key(ec.SECP256R1())
    good = x509.CertificateSigningRequestBuilder().subject_name(x509.Name([])).add_extension(
        x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False).sign(k, hashes.SHA256())
    done = json.loads(post(a, order["finalize"], {"csr": b64(good.public_bytes(serialization.Encoding.DER))}, kid)[2])
    pem_chain = post(a, done["certificate"], None, kid)[2]
    issued = x509.load_pem_x509_certificates(pem_chain)[0]
    evil = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = issued.not_valid_before_utc
    forged = (x509.CertificateBuilder().subject_name(name).issuer_name(issued.issuer)
              .public_key(evil.public_key()).serial_number(issued.serial_number)
              .not_valid_before(now).not_valid_after(issued.not_valid_after_utc)
              .sign(evil, hashes.SHA256()))
    der = forged.public_bytes(serialization.Encoding.DER)
    report("revoke_forged", post(evil, DIR["revokeCert"], {"certificate": b64(der)}))
    real = b64(issued.public_bytes(serialization.Encoding.DER))
    report("revoke_by_other_key", post(evil, DIR["revokeCert"], {"certificate": real}))
    report("revoke_by_account", post(a, DIR["revokeCert"], {"certificate": real, "reason": 1}, kid))
    report("revoke_again", post(a, DIR["revokeCert"], {"certificate": real}, kid))
    # Another account may not read it.
    post(b, DIR["newAccount"], {"termsOfServiceAgreed": True})
    kid_b = post(b, DIR["newAccount"], {"onlyReturnExisting": True})[1]["Location"]
    report("others_order", post(b, order_url, None, kid_b))
    # Its renewal (RFC 9773 §5): `replaces` must name a certificate this server issued, to
    # this account, for a name the new order has; one order replaces it at a time.
    aki = issued.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
    serial = issued.serial_number.to_bytes((issued.serial_number.bit_length() + 8) // 8, "big")
    cert_id = f"{b64(aki)}.{b64(serial)}"
    unknown_serial = f"{b64(aki)}.{b64(bytes([1, 2, 3]))}"
    other_issuer = f"{b64(bytes(20))}.{b64(serial)}"
    localhost = [{"type": "dns", "value": "localhost"}]

    def replacing(key, account, replaces, ids=localhost):
        return post(key, DIR["newOrder"], {"identifiers": ids, "replaces": replaces}, account)

    report("replaces_not_a_cert_id", replacing(a, kid, "not-a-cert-id"))
    report("replaces_unknown_serial", replacing(a, kid, unknown_serial))
    report("replaces_other_issuer", replacing(a, kid, other_issuer))
    report("replaces_others_cert", replacing(b, kid_b, cert_id))
    report("replaces_other_names", replacing(a, kid, cert_id, [{"type": "dns", "value": "other.example"}]))
    resp = replacing(a, kid, cert_id)
    first = json.loads(resp[2])
    report("replaces_first", resp, same_id=first.get("replaces") == cert_id, location=resp[1].get("Location"))
    report("replaces_again", replacing(a, kid, cert_id))
    # Once the replacing order is invalid (finalized after its authorization was
    # deactivated), another may.
    post(a, first["authorizations"][0], {"status": "deactivated"}, kid)
    post(a, first["finalize"], {"csr": csr_for(["localhost"])}, kid)
    report("replaces_after_invalid", replacing(a, kid, cert_id))
    # Targets that hang and that flood: each challenge ends invalid, within bounds.
    for scenario, ip in (("target_hangs", "127.0.0.2"), ("target_floods", "127.0.0.3")):
        _, order = new_order(a, kid, [{"type": "ip", "value": ip}])
        url = order["authorizations"][0]
        z = json.loads(post(a, url, None, kid)[2])
        ch = next(c for c in z["challenges"] if c["type"] == "http-01")
        started = time.time()
        post(a, ch["url"], {}, kid)
        z = wait_authz(a, kid, url, limit=40)
        ch = next(c for c in z["challenges"] if c["type"] == "http-01")
        err = ch.get("error") or {}
        print(json.dumps({"scenario": scenario, "authz": z["status"], "type": err.get("type"),
                          "detail": err.get("detail"), "seconds": round(time.time() - started, 1)}), flush=True)
    # A tls-alpn-01 answer that negotiates no ALPN: the challenge ends invalid.
    _, order = new_order(a, kid, [{"type": "ip", "value": "127.0.0.4"}])
    url = order["authorizations"][0]
    z = json.loads(post(a, url, None, kid)[2])
    ch = next(c for c in z["challenges"] if c["type"] == "tls-alpn-01")
    serve_without_alpn(a, ch["token"], "127.0.0.4")
    post(a, ch["url"], {}, kid)
    z = wait_authz(a, kid, url)
    ch = next(c for c in z["challenges"] if c["type"] == "tls-alpn-01")
    err = ch.get("error") or {}
    print(json.dumps({"scenario": "alpn_not_negotiated", "authz": z["status"], "type": err.get("type"),
                      "detail": err.get("detail")}), flush=True)
    # Orders past the account's rate limit (the server is run with a low one).
    for made in range(20):
        resp = post(a, DIR["newOrder"], {"identifiers": [{"type": "dns", "value": "localhost"}]}, kid)
        if resp[0] != 201:
            report("rate_limited", resp, accepted_before=made, retry_after=resp[1].get("Retry-After"))
            break


main()
