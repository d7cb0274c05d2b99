"""Chains for `tests/verify_classes.rs`: one per class of certificate that `pkit verify`
must reject (or accept), built to the letter with pyca/cryptography (and the openssl CLI
where pyca refuses to write the bad value, such as a negative serial number).

    python3 make_chains.py DIR NOW

writes the certificates into DIR and DIR/manifest.json: for each case its files, the
name asked for, and pkit's expected verdict under each rule set (`valid` or a reason
code). Go's crypto/x509 (tests/go/x509verify) and pyca (pyca_verify.py) read the same
manifest; the Rust test compares all three.
"""

import datetime
import ipaddress
import json
import os
import subprocess
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID, ObjectIdentifier

OUT = sys.argv[1]
NOW = datetime.datetime.fromtimestamp(int(sys.argv[2]), datetime.timezone.utc)
DAY = datetime.timedelta(days=1)
UNKNOWN = ObjectIdentifier("1.3.6.1.4.1.55555.1")
NC_OID = ObjectIdentifier("2.5.29.30")
AIA_OID = ObjectIdentifier("1.3.6.1.5.5.7.1.1")
BC_OID = ObjectIdentifier("2.5.29.19")

CASES = []
_serial = [1000]


def p256():
    return ec.generate_private_key(ec.SECP256R1())


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)]) if cn is not None else x509.Name([])


def next_serial():
    _serial[0] += 1
    return 0x5A00000000000000 + _serial[0]


class Cert:
    def __init__(self, path, cert, key):
        self.path, self.cert, self.key = path, cert, key


def ski_of(key):
    return x509.SubjectKeyIdentifier.from_public_key(key.public_key())


def make(
    file,
    subject,
    key,
    issuer=None,
    ca=False,
    path_len=None,
    sans=None,
    san_critical=False,
    eku=(ExtendedKeyUsageOID.SERVER_AUTH,),
    eku_critical=False,
    ku=None,
    aki=True,
    ski=True,
    aki_critical=False,
    ski_critical=False,
    aki_value=None,
    bc=True,
    bc_critical=True,
    extra=(),
    serial=None,
):
    """A certificate: self-signed when `issuer` is None, else signed by issuer.key."""
    b = x509.CertificateBuilder()
    b = b.subject_name(subject if isinstance(subject, x509.Name) else name(subject))
    b = b.issuer_name(issuer.cert.subject if issuer else (subject if isinstance(subject, x509.Name) else name(subject)))
    b = b.public_key(key.public_key())
    b = b.serial_number(serial or next_serial())
    b = b.not_valid_before(NOW - DAY).not_valid_after(NOW + 30 * DAY)
    if bc:
        b = b.add_extension(x509.BasicConstraints(ca=ca, path_length=path_len if ca else None), bc_critical)
    if ku is None:
        ku = "ca" if ca else "ee"
    if ku == "ca":
        b = b.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), True
        )
    elif ku == "ee":
        b = b.add_extension(
            x509.KeyUsage(True, False, False, False, False, False, False, False, False), True
        )
    elif ku == "ee+certsign":
        b = b.add_extension(
            x509.KeyUsage(True, False, False, False, False, True, False, False, False), True
        )
    if ski:
        b = b.add_extension(ski_of(key), ski_critical)
    signer = issuer.key if issuer else key
    if aki:
        value = aki_value or x509.AuthorityKeyIdentifier.from_issuer_public_key(signer.public_key())
        b = b.add_extension(value, aki_critical)
    if sans is not None:
        b = b.add_extension(x509.SubjectAlternativeName(sans), san_critical)
    if eku is not None and not ca:
        b = b.add_extension(x509.ExtendedKeyUsage(list(eku)), eku_critical)
    for ext, critical in extra:
        b = b.add_extension(ext, critical)
    cert = b.sign(signer, hashes.SHA256())
    path = os.path.join(OUT, file)
    with open(path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    return Cert(file, cert, key)


def write_key(file, key):
    path = os.path.join(OUT, file)
    with open(path, "wb") as f:
        f.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    return path


def case(cid, why, root, inters, leaf, rfc5280, webpki, hostname=None, ip=None, differs=None):
    """One chain and pkit's expected verdicts. `differs`: why pkit's webpki verdict may
    disagree with both Go and pyca (docs/verify.md lists each)."""
    c = {
        "id": cid,
        "why": why,
        "root": root.path,
        "intermediates": [i.path for i in inters],
        "leaf": leaf.path,
        "expect": {"rfc5280": rfc5280, "webpki": webpki},
    }
    if hostname:
        c["hostname"] = hostname
    if ip:
        c["ip"] = ip
    if differs:
        c["differs"] = differs
    CASES.append(c)


def dns(*names):
    return [x509.DNSName(n) for n in names]


def ipn(*addrs):
    return [x509.IPAddress(ipaddress.ip_address(a)) for a in addrs]


def nc(permitted=None, excluded=None):
    return x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=excluded)


def der_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag, body):
    return bytes([tag]) + der_len(len(body)) + body


def raw_nc(*general_names):
    """A NameConstraints value whose permittedSubtrees hold these GeneralName DERs, for
    constraints pyca's builder refuses to write (a wildcard, a non-prefix IP mask)."""
    subtrees = b"".join(tlv(0x30, g) for g in general_names)
    return x509.UnrecognizedExtension(NC_OID, tlv(0x30, tlv(0xA0, subtrees)))


def openssl_leaf(file, subject_cn, issuer, serial_arg, sans):
    """A leaf signed by `issuer` with the openssl CLI, for serials pyca will not write."""
    key = p256()
    kpath = write_key(file + ".key", key)
    ipath = write_key(issuer.path + ".key", issuer.key)
    cpath = os.path.join(OUT, issuer.path)
    cnf = os.path.join(OUT, file + ".cnf")
    with open(cnf, "w") as f:
        f.write(
            "[req]\ndistinguished_name = dn\n[dn]\n[v3]\n"
            "basicConstraints = critical, CA:false\n"
            "keyUsage = critical, digitalSignature\n"
            "extendedKeyUsage = serverAuth\n"
            "subjectKeyIdentifier = hash\n"
            "authorityKeyIdentifier = keyid\n"
            f"subjectAltName = {sans}\n"
        )
    csr = os.path.join(OUT, file + ".csr")
    subprocess.run(
        ["openssl", "req", "-new", "-key", kpath, "-subj", f"/CN={subject_cn}", "-config", cnf, "-out", csr],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        ["openssl", "x509", "-req", "-in", csr, "-CA", cpath, "-CAkey", ipath,
         "-set_serial", serial_arg, "-days", "30", "-extfile", cnf, "-extensions", "v3",
         "-out", os.path.join(OUT, file)],
        check=True,
        capture_output=True,
    )
    return Cert(file, None, key)


BR_CN = ("Go and pyca do not read the CN; BR §7.1.4.3 requires it to copy a SAN value "
         "byte for byte, and pkit's webpki rules refuse a CN that names one of the SANs in "
         "another spelling (a CN that names nothing in the SAN is ignored, as browsers do)")
# Where pkit's webpki verdict differs from both Go's and pyca's on purpose (docs/verify.md
# lists each): the test fails on any other disagreement with both, and on a note here
# that is no longer true.
DIFFERS = {
    "nc_budget": "pkit refuses a certificate whose names against the subtrees in force "
                 "exceed 250,000 comparisons; Go and pyca compared all 1,048,576",
    "kid_int_no_aki": "RFC 5280 §4.2.1.1: authorityKeyIdentifier MUST be present below "
                      "the anchor; Go and pyca do not require it of intermediates",
    "kid_root_aki_mismatch": "BR §7.1.2.1.3: a root's AKI, if present, is its own SKI",
    "kid_root_aki_issuer": "BR §7.1.2.1.3: a root's AKI holds a keyIdentifier only",
    "cn_case": BR_CN,
    "cn_ip_leading_zeros": BR_CN,
    "cn_ip_hex": BR_CN,
    "cn_ipv6_uppercase": BR_CN,
    "cn_ipv6_uncompressed": BR_CN,
    "cn_unicode": BR_CN,
    "san_underscore": "BR §7.1.4.2.1: no underscore in a dNSName since 2019; Go and pyca "
                      "accept one",
    "wildcard_public_suffix": "BR §3.2.2.6: no wildcard over a public suffix; pkit's webpki "
                              "rules give such a SAN no name to match (Chrome's rule too); "
                              "Go and pyca do not consult the Public Suffix List",
    "key_dsa": "BR §6.1.5 allows RSA and ECDSA keys only",
    "key_rsa1024": "BR §6.1.5: RSA of at least 2048 bits; Go and pyca take a 1024-bit leaf",
    "key_rsa_odd_modulus": "BR §6.1.5: the modulus a whole number of octets; Go and pyca "
                           "accept any size of at least 2048 bits",
    "eku_any_in_leaf": "BR §7.1.2.7.10: anyExtendedKeyUsage MUST NOT be in a subscriber "
                       "certificate",
    "root_with_eku": "BR §7.1.2.1: a root certificate has no extendedKeyUsage",
    "policy_constraints_noncritical": "RFC 5280 §4.2.1.11: policyConstraints MUST be "
                                      "critical",
    "serial_zero": "RFC 5280 §4.1.2.2: a positive serial; Go and pyca take zero",
    "serial_too_long": "RFC 5280 §4.1.2.2: at most 20 octets; Go and pyca take 21",
    "self_issued_not_counted": "RFC 5280 §6.1.4 (l): a self-issued intermediate does not "
                               "count toward pathLenConstraint; Go and pyca count it",
    "no_eku": "pkit's webpki rules require an extendedKeyUsage on the leaf (BR "
              "§7.1.2.7.10); Go and pyca take a leaf without one as valid for any purpose",
}


def main():
    os.makedirs(OUT, exist_ok=True)
    rk = p256()
    root = make("root.pem", "Classes Root", rk, ca=True)
    ik = p256()
    inter = make("int.pem", "Classes Int", ik, issuer=root, ca=True)
    H = "www.example.com"

    def leaf(file, issuer=inter, cn=H, sans=None, key=None, **kw):
        return make(file, cn, key or p256(), issuer=issuer, sans=dns(H) if sans is None else sans, **kw)

    good = leaf("good.pem")
    case("baseline", "a chain every verifier accepts", root, [inter], good, "valid", "valid", hostname=H)

    # 1. The trust anchor's own constraints.
    k = p256()
    r_ip = make("r_ip.pem", "Root excluding 192.0.2.0/24", k, ca=True,
                extra=[(nc(excluded=[x509.IPAddress(ipaddress.ip_network("192.0.2.0/24"))]), True)])
    l = make("r_ip_leaf.pem", "192.0.2.1", p256(), issuer=r_ip, sans=ipn("192.0.2.1"))
    case("anchor_nc_ip", "the root's own excluded IP range", r_ip, [], l,
         "name-constraints", "name-constraints", ip="192.0.2.1")
    k = p256()
    r_dns = make("r_dns.pem", "Root for example.com", k, ca=True,
                 extra=[(nc(permitted=[x509.DNSName("example.com")]), True)])
    i = make("r_dns_int.pem", "Int under constrained root", p256(), issuer=r_dns, ca=True)
    l = make("r_dns_leaf.pem", "www.example.org", p256(), issuer=i, sans=dns("www.example.org"))
    case("anchor_nc_dns", "the root's permitted DNS subtree, two levels down", r_dns, [i], l,
         "name-constraints", "name-constraints", hostname="www.example.org")
    k = p256()
    r_crit = make("r_crit.pem", "Root with unknown critical", k, ca=True,
                  extra=[(x509.UnrecognizedExtension(UNKNOWN, b"\x05\x00"), True)])
    l = make("r_crit_leaf.pem", H, p256(), issuer=r_crit, sans=dns(H))
    case("anchor_unknown_critical", "an unknown critical extension in the root", r_crit, [], l,
         "unknown-critical-extension", "unknown-critical-extension", hostname=H)
    k = p256()
    r_bc = make("r_bc.pem", "Root with non-critical BC", k, ca=True, bc_critical=False)
    l = make("r_bc_leaf.pem", H, p256(), issuer=r_bc, sans=dns(H))
    case("anchor_bc_noncritical", "the root's basicConstraints not critical (read all the same)",
         r_bc, [], l, "valid", "valid", hostname=H)
    i = make("int_bc.pem", "Int with non-critical BC", p256(), issuer=root, ca=True, bc_critical=False)
    l = leaf("int_bc_leaf.pem", issuer=i)
    case("intermediate_bc_noncritical", "an intermediate's basicConstraints not critical",
         root, [i], l, "valid", "invalid-extension", hostname=H)
    k = p256()
    r_pol = make("r_pol.pem", "Root requiring explicit policy", k, ca=True,
                 extra=[(x509.PolicyConstraints(require_explicit_policy=0, inhibit_policy_mapping=None), True)])
    l = make("r_pol_leaf.pem", H, p256(), issuer=r_pol, sans=dns(H))
    case("anchor_policy_constraints", "the root requires an explicit policy the leaf lacks",
         r_pol, [], l, "policy", "policy", hostname=H)

    # 2. Name constraints.
    ck = p256()
    c_dns = make("nc_int.pem", "NC Int", ck, issuer=root, ca=True,
                 extra=[(nc(permitted=[x509.DNSName("example.com")],
                            excluded=[x509.IPAddress(ipaddress.ip_network("2001:db8::/32"))]), True)])
    l = make("nc_second.pem", H, p256(), issuer=c_dns, sans=dns(H, "www.evil.org"))
    case("nc_second_san", "the second SAN outside the permitted subtree", root, [c_dns], l,
         "name-constraints", "name-constraints", hostname=H)
    l = make("nc_v6.pem", H, p256(), issuer=c_dns, sans=dns(H) + ipn("2001:db8::1"))
    case("nc_ipv6_excluded", "an IPv6 SAN in an excluded range", root, [c_dns], l,
         "name-constraints", "name-constraints", hostname=H)
    l = make("nc_self.pem", "NC Int", p256(), issuer=c_dns, sans=dns("self.example.org"))
    case("nc_self_issued_leaf", "a self-issued leaf is checked too", root, [c_dns], l,
         "name-constraints", "name-constraints", hostname="self.example.org")
    l = make("nc_invalid_san.pem", H, p256(), issuer=c_dns, sans=dns(H, "bad..example.com"))
    case("nc_permits_invalid_san", "a malformed DNS SAN is never within a permitted subtree",
         root, [c_dns], l, "name-constraints", "name-constraints", hostname=H)
    c_v4 = make("nc_v4.pem", "NC v4 Int", p256(), issuer=root, ca=True,
                extra=[(nc(permitted=[x509.IPAddress(ipaddress.ip_network("10.0.0.0/8"))]), True)])
    l = make("nc_v4_ok.pem", "10.1.2.3", p256(), issuer=c_v4, sans=ipn("10.1.2.3"))
    case("nc_ipv4_permitted", "an IP SAN inside the permitted range", root, [c_v4], l,
         "valid", "valid", ip="10.1.2.3")
    i_bad = make("nc_int_san.pem", "Int with bad SAN", p256(), issuer=r_dns, ca=True,
                 sans=dns("evil.org"))
    l = make("nc_int_san_leaf.pem", H, p256(), issuer=i_bad, sans=dns(H))
    case("nc_intermediate_san", "an intermediate's own SAN outside its issuer's constraints",
         r_dns, [i_bad], l, "name-constraints", "name-constraints", hostname=H)
    l = make("nc_in_leaf.pem", H, p256(), issuer=inter, sans=dns(H),
             extra=[(nc(permitted=[x509.DNSName("example.com")]), False)])
    case("nc_in_end_entity", "nameConstraints in an end-entity certificate", root, [inter], l,
         "name-constraints", "name-constraints", hostname=H)
    c_mask = make("nc_mask.pem", "Bad mask Int", p256(), issuer=root, ca=True,
                  extra=[(raw_nc(tlv(0x87, bytes([10, 0, 0, 0, 255, 0, 255, 0]))), True)])
    l = make("nc_mask_leaf.pem", H, p256(), issuer=c_mask, sans=dns(H))
    case("nc_bad_ip_mask", "an IP constraint whose mask is not a prefix", root, [c_mask], l,
         "name-constraints", "name-constraints", hostname=H)
    c_wild = make("nc_wild.pem", "Wildcard NC Int", p256(), issuer=root, ca=True,
                  extra=[(raw_nc(tlv(0x82, b"*.example.com")), True)])
    l = make("nc_wild_leaf.pem", H, p256(), issuer=c_wild, sans=dns(H))
    case("nc_wildcard_constraint", "a wildcard dNSName constraint", root, [c_wild], l,
         "name-constraints", "name-constraints", hostname=H)
    c_dot = make("nc_dot.pem", "Leading period NC Int", p256(), issuer=root, ca=True,
                 extra=[(nc(permitted=[x509.DNSName(".example.com")]), True)])
    l = make("nc_dot_leaf.pem", H, p256(), issuer=c_dot, sans=dns(H))
    case("nc_leading_period", "a leading-period dNSName constraint", root, [c_dot], l,
         "valid", "name-constraints", hostname=H)
    c_loc = make("nc_local.pem", "No localhost Int", p256(), issuer=root, ca=True,
                 extra=[(nc(excluded=[x509.DNSName("localhost")]), True)])
    l = make("nc_cn_leaf.pem", "test.localhost", p256(), issuer=c_loc, sans=ipn("127.0.0.1"))
    case("nc_cn_with_ip_san", "DNS constraints do not apply to the CN beside a SAN",
         root, [c_loc], l, "valid", "valid", ip="127.0.0.1")
    c_mail = make("nc_mail.pem", "Mail for example.com Int", p256(), issuer=root, ca=True,
                  extra=[(nc(permitted=[x509.RFC822Name("example.com")]), True)])
    l = make("nc_bad_mail_leaf.pem", H, p256(), issuer=c_mail,
             sans=dns(H) + [x509.RFC822Name("good@example.com"),
                            x509.RFC822Name._init_without_validation("a@b@example.com")])
    case("nc_invalid_email_san", "an email SAN that is no mailbox under a permitted email subtree",
         root, [c_mail], l, "name-constraints", "name-constraints", hostname=H)
    c_many = make("nc_many.pem", "Many subtrees Int", p256(), issuer=root, ca=True,
                  extra=[(nc(permitted=[x509.DNSName(f"n{i}.example.com") for i in range(1024)]), True)])
    l = make("nc_many_leaf.pem", "h0.n0.example.com", p256(), issuer=c_many,
             sans=dns(*[f"h{i}.n0.example.com" for i in range(1024)]))
    case("nc_budget", "1,024 names against 1,024 subtrees is over the comparison budget",
         root, [c_many], l, "budget-exceeded", "budget-exceeded", hostname="h0.n0.example.com")

    # 3. Key identifiers.
    l = leaf("kid_leaf_noaki.pem", aki=False)
    case("kid_leaf_no_aki", "a leaf without authorityKeyIdentifier", root, [inter], l,
         "key-identifier", "key-identifier", hostname=H)
    i = make("kid_int_noski.pem", "Int without SKI", p256(), issuer=root, ca=True, ski=False)
    l = leaf("kid_int_noski_leaf.pem", issuer=i, aki=False)
    case("kid_int_no_ski", "an intermediate without subjectKeyIdentifier", root, [i], l,
         "key-identifier", "key-identifier", hostname=H)
    i = make("kid_int_noaki.pem", "Int without AKI", p256(), issuer=root, ca=True, aki=False)
    l = leaf("kid_int_noaki_leaf.pem", issuer=i)
    case("kid_int_no_aki", "an intermediate without authorityKeyIdentifier", root, [i], l,
         "key-identifier", "key-identifier", hostname=H)
    k = p256()
    r = make("kid_root_noski.pem", "Root without SKI", k, ca=True, ski=False, aki=False)
    l = make("kid_root_noski_leaf.pem", H, p256(), issuer=r, sans=dns(H),
             aki_value=x509.AuthorityKeyIdentifier(ski_of(k).digest, None, None))
    case("kid_root_no_ski", "a root without subjectKeyIdentifier (as two in Mozilla's store)",
         r, [], l, "valid", "valid", hostname=H)
    l = make("kid_root_noski_leaf_noaki.pem", H, p256(), issuer=r, sans=dns(H), aki=False)
    case("kid_no_aki_under_root_without_ski", "no AKI where the issuer has no SKI to name",
         r, [], l, "valid", "valid", hostname=H)
    l = leaf("kid_crit.pem", aki_critical=True)
    case("kid_critical_aki", "a critical authorityKeyIdentifier", root, [inter], l,
         "key-identifier", "key-identifier", hostname=H)
    i = make("kid_crit_ski.pem", "Int with critical SKI", p256(), issuer=root, ca=True, ski_critical=True)
    l = leaf("kid_crit_ski_leaf.pem", issuer=i)
    case("kid_critical_ski", "a critical subjectKeyIdentifier", root, [i], l,
         "key-identifier", "key-identifier", hostname=H)
    k = p256()
    r = make("kid_root_mismatch.pem", "Root with foreign AKI", k, ca=True,
             aki_value=x509.AuthorityKeyIdentifier(b"\x01" * 20, None, None))
    l = make("kid_root_mismatch_leaf.pem", H, p256(), issuer=r, sans=dns(H))
    case("kid_root_aki_mismatch", "a root whose AKI is not its SKI", r, [], l,
         "valid", "key-identifier", hostname=H)
    k = p256()
    r = make("kid_root_serial.pem", "Root with AKI issuer and serial", k, ca=True,
             aki_value=x509.AuthorityKeyIdentifier(ski_of(k).digest,
                                                   [x509.DirectoryName(name("Root with AKI issuer and serial"))], 7))
    l = make("kid_root_serial_leaf.pem", H, p256(), issuer=r, sans=dns(H))
    case("kid_root_aki_issuer", "a root whose AKI names an issuer and serial", r, [], l,
         "valid", "key-identifier", hostname=H)

    # 5. webpki names.
    l = leaf("cn_case.pem", cn="WWW.example.com")
    case("cn_case", "the CN differs from the SAN in case", root, [inter], l,
         "valid", "invalid-name", hostname=H)
    l = leaf("cn_ip_zeros.pem", cn="192.000.002.001", sans=ipn("192.0.2.1"))
    case("cn_ip_leading_zeros", "the CN spells the SAN's IP with leading zeros", root, [inter], l,
         "valid", "invalid-name", ip="192.0.2.1")
    l = leaf("cn_ip_hex.pem", cn="0xc0000201", sans=ipn("192.0.2.1"))
    case("cn_ip_hex", "the CN spells the SAN's IP in hex", root, [inter], l,
         "valid", "invalid-name", ip="192.0.2.1")
    l = leaf("cn_v6_upper.pem", cn="2001:DB8::1", sans=ipn("2001:db8::1"))
    case("cn_ipv6_uppercase", "the CN spells the SAN's IPv6 in uppercase", root, [inter], l,
         "valid", "invalid-name", ip="2001:db8::1")
    l = leaf("cn_v6_long.pem", cn="2001:db8:0:0:0:0:0:1", sans=ipn("2001:db8::1"))
    case("cn_ipv6_uncompressed", "the CN spells the SAN's IPv6 uncompressed", root, [inter], l,
         "valid", "invalid-name", ip="2001:db8::1")
    l = leaf("cn_unicode.pem", cn="bücher.example", sans=dns("xn--bcher-kva.example"))
    case("cn_unicode", "the CN in UTF-8, the SAN in punycode", root, [inter], l,
         "valid", "invalid-name", hostname="xn--bcher-kva.example")
    l = leaf("san_underscore.pem", sans=dns(H, "a_b.example.com"))
    case("san_underscore", "an underscore in a DNS SAN", root, [inter], l,
         "valid", "invalid-name", hostname=H)
    l = leaf("cn_elsewhere.pem", cn="other.example.com")
    case("cn_not_in_san", "a CN that names nothing in the SAN (ignored)", root, [inter], l,
         "valid", "valid", hostname=H)
    l = leaf("san_psl.pem", cn="*.co.uk", sans=dns("*.co.uk"))
    case("wildcard_public_suffix", "a wildcard over a public suffix", root, [inter], l,
         "valid", "hostname-mismatch", hostname="foo.co.uk")
    l = leaf("san_psl_exact.pem", cn="www.example.co.uk", sans=dns("*.co.uk", "www.example.co.uk"))
    case("wildcard_public_suffix_beside_exact",
         "a wildcard over a public suffix beside the exact name asked for", root, [inter], l,
         "valid", "valid", hostname="www.example.co.uk")
    l = leaf("san_crit.pem", san_critical=True)
    case("san_critical_with_subject", "a critical SAN beside a non-empty subject", root, [inter], l,
         "valid", "invalid-name", hostname=H)
    l = leaf("san_empty_subject.pem", cn=None, san_critical=False)
    case("san_noncritical_empty_subject", "a non-critical SAN with an empty subject",
         root, [inter], l, "valid", "invalid-name", hostname=H)
    i = make("ca_empty.pem", x509.Name([]), p256(), issuer=root, ca=True,
             sans=dns("ca.example.com"), san_critical=True)
    l = leaf("ca_empty_leaf.pem", issuer=i)
    case("ca_empty_subject", "an intermediate with an empty subject", root, [i], l,
         "valid", "invalid-name", hostname=H)
    aia_bad = x509.UnrecognizedExtension(AIA_OID, b"\x30\x03\x02\x01\x00")
    l = leaf("aia_bad.pem", extra=[(aia_bad, False)])
    case("aia_malformed", "an authorityInfoAccess that does not decode", root, [inter], l,
         "valid", "malformed", hostname=H)

    # 6. webpki keys and usages.
    l = leaf("key_p192.pem", key=ec.generate_private_key(ec.SECP192R1()))
    case("key_p192", "a P-192 leaf key", root, [inter], l, "valid", "weak-algorithm", hostname=H)
    l = leaf("key_dsa.pem", key=dsa.generate_private_key(2048))
    case("key_dsa", "a DSA leaf key", root, [inter], l, "valid", "weak-algorithm", hostname=H)
    l = leaf("key_rsa1024.pem", key=rsa.generate_private_key(65537, 1024))
    case("key_rsa1024", "an RSA-1024 leaf key", root, [inter], l, "valid", "weak-algorithm", hostname=H)
    l = leaf("key_rsa2052.pem", key=rsa.generate_private_key(65537, 2052))
    case("key_rsa_odd_modulus", "an RSA modulus of 2052 bits (not whole octets)", root, [inter], l,
         "valid", "weak-algorithm", hostname=H,
         differs="Go and pyca accept any RSA modulus of at least 2048 bits; the BRs "
                 "(§6.1.5) require a whole number of octets, and pkit's webpki rules enforce it")
    rk1024 = rsa.generate_private_key(65537, 1024)
    r = make("key_root1024.pem", "Root RSA-1024", rk1024, ca=True)
    l = make("key_root1024_leaf.pem", H, p256(), issuer=r, sans=dns(H))
    case("key_root_rsa1024", "an RSA-1024 root", r, [], l, "valid", "weak-algorithm", hostname=H)
    l = leaf("eku_any.pem", eku=(ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.ANY_EXTENDED_KEY_USAGE))
    case("eku_any_in_leaf", "anyExtendedKeyUsage in the leaf", root, [inter], l,
         "valid", "eku-mismatch", hostname=H)
    l = leaf("eku_crit.pem", eku_critical=True)
    case("eku_critical", "a critical extendedKeyUsage in the leaf", root, [inter], l,
         "valid", "invalid-extension", hostname=H)
    l = leaf("ku_certsign.pem", ku="ee+certsign")
    case("leaf_keycertsign", "a leaf whose keyUsage allows keyCertSign", root, [inter], l,
         "valid", "key-usage", hostname=H)
    l = leaf("leaf_ca.pem", ca=True, ku="ee")
    case("leaf_is_ca", "a CA certificate as the leaf", root, [inter], l,
         "valid", "invalid-extension", hostname=H)
    k = p256()
    r = make("root_eku.pem", "Root with EKU", k, ca=True,
             extra=[(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)])
    l = make("root_eku_leaf.pem", H, p256(), issuer=r, sans=dns(H))
    case("root_with_eku", "a root with an extendedKeyUsage", r, [], l,
         "valid", "invalid-extension", hostname=H)
    i_eku = make("int_eku.pem", "Int with serverAuth", p256(), issuer=root, ca=True,
                 extra=[(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)])
    l = leaf("int_eku_leaf.pem", issuer=i_eku)
    case("intermediate_anchor_with_eku", "an intermediate with an EKU trusted as the anchor",
         i_eku, [], l, "valid", "valid", hostname=H)
    i = make("int_polc.pem", "Int with non-critical policyConstraints", p256(), issuer=root, ca=True,
             extra=[(x509.PolicyConstraints(require_explicit_policy=None, inhibit_policy_mapping=0), False)])
    l = leaf("int_polc_leaf.pem", issuer=i)
    case("policy_constraints_noncritical", "an intermediate's policyConstraints not critical",
         root, [i], l, "valid", "invalid-extension", hostname=H)
    for cid, serial, why in [
        ("serial_zero", "0", "a zero serial number"),
        ("serial_negative", "-5", "a negative serial number"),
        ("serial_too_long", "0x" + "7f" * 21, "a serial number of 21 octets"),
    ]:
        l = openssl_leaf(cid + ".pem", H, inter, serial, f"DNS:{H}")
        case(cid, why, root, [inter], l, "valid", "invalid-serial", hostname=H)

    # What must be accepted.
    bc_leaf_pathlen = x509.UnrecognizedExtension(BC_OID, b"\x30\x03\x02\x01\x00")
    l = leaf("leaf_pathlen.pem", bc=False, extra=[(bc_leaf_pathlen, True)])
    case("leaf_pathlen_ignored", "a pathLenConstraint in the leaf is ignored", root, [inter], l,
         "valid", "valid", hostname=H)
    k = p256()
    r1 = make("si_root.pem", "SI Root", k, ca=True, path_len=1)
    ik1 = p256()
    i1 = make("si_int.pem", "SI Int", ik1, issuer=r1, ca=True)
    ik2 = p256()
    i2 = make("si_int2.pem", "SI Int", ik2, issuer=i1, ca=True)
    l = make("si_leaf.pem", H, p256(), issuer=i2, sans=dns(H))
    case("self_issued_not_counted", "a self-issued intermediate does not count toward pathLen",
         r1, [i1, i2], l, "valid", "valid", hostname=H)
    l = leaf("no_eku.pem", eku=None)
    case("no_eku", "an end entity without extendedKeyUsage", root, [inter], l,
         "valid", "eku-mismatch", hostname=H)

    # 4. CRLs, all by the intermediate about `good.pem`: one by the rules, one without
    # cRLNumber, one with a critical cRLNumber, one with an unknown critical extension,
    # one whose AKI is another key's (pyca writes no CRL without nextUpdate: the unit
    # tests of pki::verify::revocation cover that one).
    crls = {}
    for cid, number, critical, next_update in [
        ("crl_good", 1, False, True),
        ("crl_no_number", None, False, True),
        ("crl_critical_number", 2, True, True),
        ("crl_unknown_critical", 3, False, True),
        ("crl_foreign_aki", 4, False, True),
    ]:
        b = x509.CertificateRevocationListBuilder().issuer_name(inter.cert.subject)
        b = b.last_update(NOW - DAY)
        if next_update:
            b = b.next_update(NOW + 7 * DAY)
        if cid == "crl_foreign_aki":
            b = b.add_extension(x509.AuthorityKeyIdentifier(b"\x01" * 20, None, None), False)
        else:
            b = b.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ik.public_key()), False)
        if number is not None:
            b = b.add_extension(x509.CRLNumber(number), critical)
        if cid == "crl_unknown_critical":
            b = b.add_extension(x509.UnrecognizedExtension(UNKNOWN, b"\x05\x00"), True)
        crl = b.sign(ik, hashes.SHA256())
        with open(os.path.join(OUT, cid + ".pem"), "wb") as f:
            f.write(crl.public_bytes(serialization.Encoding.PEM))
        crls[cid] = cid + ".pem"

    for c in CASES:
        if c["id"] in DIFFERS and "differs" not in c:
            c["differs"] = DIFFERS[c["id"]]
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        # Verified a minute after NOW: the openssl-made leaves start the second openssl
        # ran (its x509 command of 3.0 cannot backdate notBefore), the rest a day before.
        json.dump({"time": int(NOW.timestamp()) + 60, "cases": CASES, "crls": crls}, f, indent=1)


main()
