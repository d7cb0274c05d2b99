"""A Merkle Tree Certificate relying party (draft-ietf-plants-merkle-tree-certs-07 §7.2),
written from the draft's text with Python's hashlib (and RFC 9162's proof walk in
rfc9162.py beside it) and `cryptography` (for the
cosigner's signature and the certificate's validity): nothing of pkit's code.

    mtc_verify.py CA_PEM CERT_PEM [TRUSTED_SUBTREES]

CA_PEM is the MTC CA certificate (§5.5: its subject the CA's trust anchor ID, its key the
CA's cosigner key). TRUSTED_SUBTREES holds landmark subtrees, one "LOG START END HEXHASH"
a line. The certificate is checked, then copies of it with one byte changed (in its key,
its validity and the end of its proof) must all be refused. Prints
{"kind", "log", "index", "start", "end", "refused"} and exits 0, or names the failed
step and exits 1.
"""

import datetime
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec, ed25519  # noqa: E402
from rfc9162 import inclusion_root  # noqa: E402

MTC_PROOF_ALG = bytes.fromhex("300a06082b06010505070643")  # id-alg-mtcProof, no parameters
TRUST_ANCHOR_ID_ATTR = bytes.fromhex("06082b06010505071903")  # 1.3.6.1.5.5.7.25.3
UINT48 = (1 << 48) - 1


class Refused(Exception):
    pass


def tlv(buf, pos):
    """(tag, start of contents, end) of the DER TLV at pos."""
    if pos + 2 > len(buf):
        raise Refused(f"offset {pos}: truncated DER")
    tag, first = buf[pos], buf[pos + 1]
    pos += 2
    if first < 0x80:
        length = first
    else:
        n = first & 0x7F
        if n == 0 or n > 4 or pos + n > len(buf):
            raise Refused(f"offset {pos}: bad DER length")
        length = int.from_bytes(buf[pos:pos + n], "big")
        pos += n
    if pos + length > len(buf):
        raise Refused(f"offset {pos}: DER past the end")
    return tag, pos, pos + length


def children(buf, start, end):
    """The TLVs in buf[start:end] as (tag, whole TLV bytes, contents)."""
    out, pos = [], start
    while pos < end:
        tag, c, e = tlv(buf, pos)
        out.append((tag, buf[pos:e], buf[c:e]))
        pos = e
    return out


def dotted(rel_oid):
    arcs, v = [], 0
    for b in rel_oid:
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            arcs.append(str(v))
            v = 0
    return ".".join(arcs)


class Proof:
    """MTCProof (§6.2), TLS presentation language."""

    def __init__(self, b):
        self.b, self.pos = b, 0
        self.extensions = self.vector(2)
        self.start = self.uint(6)
        self.end = self.uint(6)
        hashes_ = self.vector(2)
        if len(hashes_) % 32:
            raise Refused("MTCProof: inclusion_proof not whole hashes")
        self.path = [hashes_[i:i + 32] for i in range(0, len(hashes_), 32)]
        sigs = self.vector(3)
        self.signatures, p = [], 0
        while p < len(sigs):
            n = sigs[p]
            cid = sigs[p + 1:p + 1 + n]
            m = int.from_bytes(sigs[p + 1 + n:p + 3 + n], "big")
            sig = sigs[p + 3 + n:p + 3 + n + m]
            if n == 0 or len(sig) != m:
                raise Refused("MTCProof: a truncated cosignature")
            self.signatures.append((cid, sig))
            p += 3 + n + m
        if self.pos != len(b):
            raise Refused("MTCProof: trailing data")

    def uint(self, n):
        if self.pos + n > len(self.b):
            raise Refused("MTCProof: truncated")
        v = int.from_bytes(self.b[self.pos:self.pos + n], "big")
        self.pos += n
        return v

    def vector(self, n):
        length = self.uint(n)
        if self.pos + length > len(self.b):
            raise Refused("MTCProof: a vector past the end")
        v = self.b[self.pos:self.pos + length]
        self.pos += length
        return v


def ca_of(ca_pem):
    """The CA's trust anchor ID (binary), its Name DER and its public key."""
    der = x509.load_pem_x509_certificate(ca_pem).public_bytes(serialization.Encoding.DER)
    _, c, e = tlv(der, 0)
    tbs = children(der, c, e)[0]
    _, tc, te = tlv(tbs[1], 0)
    fields = [f for f in children(tbs[1], tc, te) if f[0] != 0xA0]
    subject, spki = fields[4], fields[5]
    i = subject[1].find(TRUST_ANCHOR_ID_ATTR)
    if i < 0:
        raise Refused("the CA's subject is not a trust anchor ID")
    _, vc, ve = tlv(subject[1], i + len(TRUST_ANCHOR_ID_ATTR))
    return subject[1][vc:ve], subject[1], serialization.load_der_public_key(spki[1])


def verify(ca, cert_der, trusted, now):
    ca_id, ca_name, ca_key = ca
    # 1. The signature algorithm, and the proof in the signature value.
    _, c, e = tlv(cert_der, 0)
    if e != len(cert_der):
        raise Refused("trailing data after the certificate")
    parts = children(cert_der, c, e)
    if len(parts) != 3 or parts[1][1] != MTC_PROOF_ALG:
        raise Refused("step 1: the signature algorithm is not id-alg-mtcProof")
    bits = parts[2][2]
    if parts[2][0] != 0x03 or not bits or bits[0] != 0:
        raise Refused("step 1: the signature value is not a whole-byte BIT STRING")
    proof = Proof(bits[1:])
    _, tc, te = tlv(parts[0][1], 0)
    tbs = children(parts[0][1], tc, te)
    version = [t for t in tbs if t[0] == 0xA0]
    rest = [t for t in tbs if t[0] != 0xA0]
    serial, sig_alg, issuer, validity, subject, spki = rest[:6]
    optional = rest[6:]
    if sig_alg[1] != MTC_PROOF_ALG:
        raise Refused("step 1: the TBS signature algorithm is not id-alg-mtcProof")
    if issuer[1] != ca_name:
        raise Refused("the issuer is not the CA")
    # 2. The serial number: the log and the index.
    s = int.from_bytes(serial[2], "big", signed=True)
    if s < 0 or s >= 1 << 64:
        raise Refused("step 2: the serial is out of range")
    log, index = s >> 48, s & UINT48
    if log == 0:
        raise Refused("step 2: log number 0")
    # 3. The TBSCertificateLogEntry, the MTCLogEntry and its hash.
    _, sc, se = tlv(spki[1], 0)
    spki_alg = children(spki[1], sc, se)[0][1]
    entry_tbs = b"".join(v[1] for v in version) + issuer[1] + validity[1] + subject[1] + spki_alg
    entry_tbs += b"\x04\x20" + hashlib.sha256(spki[1]).digest()
    entry_tbs += b"".join(o[1] for o in optional)
    entry = len(proof.extensions).to_bytes(2, "big") + proof.extensions + b"\x00\x01" + entry_tbs
    leaf = hashlib.sha256(b"\x00" + entry).digest()
    # 4. The inclusion proof, in a valid subtree that holds the index.
    start, end = proof.start, proof.end
    width = end - start
    if not (start <= index < end) or start % (1 << (width - 1).bit_length()):
        raise Refused("step 4: not a valid subtree holding the entry")
    expected = inclusion_root(index - start, width, leaf, proof.path)
    if expected is None:
        raise Refused("step 4: the inclusion proof does not fit the subtree")
    # 5. A trusted (landmark) subtree, else the CA's cosignature.
    key = (log, start, end)
    if key in trusted:
        if trusted[key] != expected:
            raise Refused("step 5: the landmark subtree's hash differs")
        kind = "landmark"
    else:
        name = b"oid/1.3.6.1.4.1." + dotted(ca_id).encode()
        origin = name + b".0." + str(log).encode()
        message = (b"subtree/v1\n\x00" + bytes([len(name)]) + name + (0).to_bytes(8, "big")
                   + bytes([len(origin)]) + origin + start.to_bytes(8, "big")
                   + end.to_bytes(8, "big") + expected)
        sigs = [sig for cid, sig in proof.signatures if cid == ca_id]
        if not sigs:
            raise Refused("step 5: no cosignature of the CA")
        try:
            if isinstance(ca_key, ed25519.Ed25519PublicKey):
                ca_key.verify(sigs[0], message)
            else:
                ca_key.verify(sigs[0], message, ec.ECDSA(hashes.SHA256()))
        except Exception:
            raise Refused("step 5: the CA's cosignature does not verify")
        kind = "standalone"
    # 6. The ordinary checks: validity, read by cryptography.
    c = x509.load_der_x509_certificate(cert_der)
    if not (c.not_valid_before_utc <= now <= c.not_valid_after_utc):
        raise Refused("step 6: outside its validity")
    return {"kind": kind, "log": log, "index": index, "start": start, "end": end}


def main():
    ca = ca_of(open(sys.argv[1], "rb").read())
    der = x509.load_pem_x509_certificate(open(sys.argv[2], "rb").read()).public_bytes(
        serialization.Encoding.DER)
    trusted = {}
    if len(sys.argv) > 3:
        for line in open(sys.argv[3]):
            if line.strip():
                log, start, end, h = line.split()
                trusted[(int(log), int(start), int(end))] = bytes.fromhex(h)
    now = datetime.datetime.now(datetime.timezone.utc)
    try:
        out = verify(ca, der, trusted, now)
    except Refused as e:
        print(json.dumps({"refused": str(e)}))
        sys.exit(1)
    # One byte changed in the key (a P-256 point's x), the notBefore year and the proof's
    # last byte: each refused.
    spots = [der.find(b"\x03\x42\x00\x04") + 10, der.find(b"\x17\x0d") + 3, len(der) - 1]
    refused = 0
    for at in spots:
        bad = bytearray(der)
        bad[at] ^= 0x01
        try:
            verify(ca, bytes(bad), trusted, now)
        except Exception:
            refused += 1
            continue
        print(json.dumps({"accepted_tampered_at": at}))
        sys.exit(1)
    out["refused"] = refused
    print(json.dumps(out))


main()
