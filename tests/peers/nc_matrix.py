"""The name constraints matrix of Netflix BetterTLS's `nameconstraints` suite, built
here: the suite's Go module is not served by the module proxy this project's machines
reach, so its published dimensions and expected results are rebuilt with
pyca/cryptography (the generator is pkit's own; the facts are BetterTLS's).

    python3 nc_matrix.py DIR NOW

A trust root signs a "local root", which signs one intermediate per combination of
four name constraints (permitted DNS, excluded DNS, permitted IP, excluded IP, each
absent, "valid" or "invalid"), which signs one leaf per combination of subject CN
(absent, or a DNS name or IP address, valid or invalid) and DNS and IP SANs (absent,
valid, invalid). Each case is that chain and the name the client asks for (the valid
DNS name or the valid IP address): 2 x 81 x 5 x 9 = 7,290 cases. DIR/root.pem is the
trust anchor; each case's file holds the leaf, its intermediate and the local root.
DIR/manifest.json lists every case with the suite's expected result: PASS and FAIL
must be met; SOFT_PASS and SOFT_FAIL (behaviour the suite tolerates either way, such
as a CN used as a host name) are reported, not judged.
"""

import datetime
import ipaddress
import itertools
import json
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

OUT = sys.argv[1]
NOW = datetime.datetime.fromtimestamp(int(sys.argv[2]), datetime.timezone.utc)
DAY = datetime.timedelta(days=1)

VALID_DNS_NAME = "test.localhost"
INVALID_DNS_NAME = "bad.example.com"
VALID_IP = "127.0.0.1"
INVALID_IP = "1.1.1.1"
VALID_DNS_TREE = "localhost"
INVALID_DNS_TREE = "example.com"
VALID_IP_RANGE = "127.0.0.0/24"
INVALID_IP_RANGE = "1.1.1.0/24"

NONE, VALID, INVALID = "none", "valid", "invalid"
TRI = (NONE, VALID, INVALID)
_serial = [1]


def serial():
    _serial[0] += 1
    return 0x3C00000000000000 + _serial[0]


def builder(subject, issuer_name, key, signer_key, ca):
    b = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(serial())
        .not_valid_before(NOW - DAY)
        .not_valid_after(NOW + 30 * DAY)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(signer_key.public_key()), False
        )
    )
    if ca:
        b = b.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), True
        )
    return b


def name(cn):
    attrs = [x509.NameAttribute(NameOID.ORGANIZATION_NAME, "pkit nc matrix")]
    if cn is not None:
        attrs.insert(0, x509.NameAttribute(NameOID.COMMON_NAME, cn))
    return x509.Name(attrs)


def expected(host, cn_type, cn_val, dns_san, ip_san, ipw, dnsw, ipb, dnsb):
    """The suite's expected result for one case (its published rules)."""
    soft_fail = soft_pass = False
    if host == "dns":
        if dns_san != VALID:
            if cn_type != "dns" or cn_val != VALID:
                return "FAIL"
            soft_fail = True  # only the CN names the host
        if dnsw == INVALID or dnsb == VALID:
            return "FAIL"
    else:
        if ip_san != VALID:
            if cn_type != "ip" or cn_val != VALID:
                return "FAIL"
            soft_fail = True
        if ipw == INVALID or ipb == VALID:
            return "FAIL"

    def denied(kind, val):
        if kind == "dns":
            w, b = dnsw, dnsb
        else:
            w, b = ipw, ipb
        if val == VALID:
            return w == INVALID or b == VALID
        if val == INVALID:
            return w == VALID or b == INVALID
        return False

    san_violation = denied("dns", dns_san) or denied("ip", ip_san)
    cn_violation = cn_val != NONE and denied(cn_type, cn_val)
    if san_violation:
        soft_fail = True
    elif cn_violation:
        soft_pass = True
    if soft_fail:
        return "SOFT_FAIL"
    if soft_pass:
        return "SOFT_PASS"
    return "PASS"


def main():
    os.makedirs(OUT, exist_ok=True)
    pem = serialization.Encoding.PEM
    root_key = ec.generate_private_key(ec.SECP256R1())
    root_name = name("nc matrix trust root")
    root = builder(root_name, root_name, root_key, root_key, True).sign(root_key, hashes.SHA256())
    with open(os.path.join(OUT, "root.pem"), "wb") as f:
        f.write(root.public_bytes(pem))
    local_key = ec.generate_private_key(ec.SECP256R1())
    local = builder(name("local_root"), root_name, local_key, root_key, True).sign(
        root_key, hashes.SHA256()
    )
    ica_key = ec.generate_private_key(ec.SECP256R1())
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    dns_tree = {VALID: VALID_DNS_TREE, INVALID: INVALID_DNS_TREE}
    dns_excluded = {VALID: VALID_DNS_TREE, INVALID: INVALID_DNS_NAME}
    ip_range = {VALID: VALID_IP_RANGE, INVALID: INVALID_IP_RANGE}
    cases = []
    for ipw, dnsw, ipb, dnsb in itertools.product(TRI, TRI, TRI, TRI):
        permitted, excluded = [], []
        if dnsw != NONE:
            permitted.append(x509.DNSName(dns_tree[dnsw]))
        if ipw != NONE:
            permitted.append(x509.IPAddress(ipaddress.ip_network(ip_range[ipw])))
        if dnsb != NONE:
            excluded.append(x509.DNSName(dns_excluded[dnsb]))
        if ipb != NONE:
            excluded.append(x509.IPAddress(ipaddress.ip_network(ip_range[ipb])))
        ica_name = name("local_ica")
        b = builder(ica_name, local.subject, ica_key, local_key, True)
        if permitted or excluded:
            b = b.add_extension(
                x509.NameConstraints(permitted_subtrees=permitted or None,
                                     excluded_subtrees=excluded or None),
                True,
            )
        ica = b.sign(local_key, hashes.SHA256())
        chain_tail = ica.public_bytes(pem) + local.public_bytes(pem)
        cn_choices = [(None, NONE)] + [(t, v) for t in ("dns", "ip") for v in (VALID, INVALID)]
        for (cn_type, cn_val), dns_san, ip_san in itertools.product(cn_choices, TRI, TRI):
            cn = None
            if cn_val != NONE:
                cn = {("dns", VALID): VALID_DNS_NAME, ("dns", INVALID): INVALID_DNS_NAME,
                      ("ip", VALID): VALID_IP, ("ip", INVALID): INVALID_IP}[(cn_type, cn_val)]
            sans = []
            if dns_san != NONE:
                sans.append(x509.DNSName(VALID_DNS_NAME if dns_san == VALID else INVALID_DNS_NAME))
            if ip_san != NONE:
                sans.append(x509.IPAddress(ipaddress.ip_address(VALID_IP if ip_san == VALID else INVALID_IP)))
            b = builder(name(cn), ica_name, leaf_key, ica_key, False)
            b = b.add_extension(
                x509.KeyUsage(True, False, False, False, False, False, False, False, False), True
            )
            b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
            if sans:
                b = b.add_extension(x509.SubjectAlternativeName(sans), False)
            leaf = b.sign(ica_key, hashes.SHA256())
            file = f"nc_{ipw}_{dnsw}_{ipb}_{dnsb}_cn-{cn_type or 'none'}-{cn_val}_dns-{dns_san}_ip-{ip_san}.pem"
            with open(os.path.join(OUT, file), "wb") as f:
                f.write(leaf.public_bytes(pem) + chain_tail)
            for host in ("dns", "ip"):
                cases.append({
                    "file": file,
                    "host": host,
                    "expected": expected(host, cn_type, cn_val, dns_san, ip_san, ipw, dnsw, ipb, dnsb),
                })
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"time": int(NOW.timestamp()), "hosts": {"dns": VALID_DNS_NAME, "ip": VALID_IP},
                   "cases": cases}, f)


main()
