#!/usr/bin/env bash
# Seed inputs for the fuzz targets, written to fuzz/seeds/<target>/ (not committed: the
# campaign minimizes what it finds into fuzz/corpus/<target>/, which is).
#
# Sources: tests/data (PKITS certificates and CRLs), the PyPI package
# cryptography_vectors 50.0.2 (x509, OCSP, PKCS#7, PKCS#12, keys), objects made here with
# the pkit binary (keys, certificates, CSRs, CRLs and OCSP messages of all nine
# algorithms, encrypted keys, an MTC log with its certificates, checkpoints and tiles),
# and the fixture requests of ocsp_http and mtc_http (tests/fuzz_corpus.rs).
#
# Usage: fuzz/seed.sh   (from the repository root; builds pkit with `cargo xtask build`)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/fuzz/seeds
PASS=cryptography # the password pkit::fuzzing's decrypting targets use
NOW=2026-01-15T00:00:00Z

cargo xtask build --quiet
PKIT=$ROOT/target/debug/pkit
VECTORS=$(python3 -c 'import cryptography_vectors,os;print(os.path.dirname(cryptography_vectors.__file__))' 2>/dev/null) || {
    pip install cryptography_vectors==50.0.2 >/dev/null
    VECTORS=$(python3 -c 'import cryptography_vectors,os;print(os.path.dirname(cryptography_vectors.__file__))')
}

rm -rf "$OUT"
mkdir -p "$OUT"
GEN=$(mktemp -d)
trap 'rm -rf "$GEN"' EXIT
pk() { "$PKIT" "$@" >/dev/null; }

# --- Objects made with pkit -----------------------------------------------------------
for alg in ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87; do
    d=$GEN/$alg
    mkdir -p "$d"
    pk key gen -a "$alg" --outform der -o "$d/key.der"
    pk key pub "$d/key.der" --outform der -o "$d/pub.der"
    pk key gen -a "$alg" --outform der --passout "pass:$PASS" --kdf pbkdf2 -o "$d/enc-pbkdf2.der"
    case $alg in ml-dsa-*)
        pk key gen -a "$alg" --outform der --mldsa-key-format both -o "$d/key-both.der"
        pk key gen -a "$alg" --outform der --mldsa-key-format expanded -o "$d/key-expanded.der"
        ;;
    esac
    pk issue ca --dir "$d/ca" --subject "CN=Fuzz Root $alg,O=pkit" --alg "$alg" --now "$NOW"
    pk issue ca --dir "$d/sub" --parent "$d/ca" --subject "CN=Fuzz Sub $alg" --alg "$alg" \
        --path-len 0 --now "$NOW"
    pk issue cert --ca "$d/sub" --subject "CN=leaf.example" --san DNS:leaf.example \
        --san IP:192.0.2.1 --san email:a@leaf.example --san URI:https://leaf.example/ \
        --alg "$alg" --key-out "$d/leaf.key" --now "$NOW" -o "$d/leaf.pem"
    pk issue csr --key "$d/key.der" --subject "CN=csr.example,O=pkit,C=DE" \
        --san DNS:csr.example -o "$d/req.pem"
    serial=$("$PKIT" parse -f json "$d/leaf.pem" | python3 -c 'import json,sys;print(json.load(sys.stdin)["items"][0]["serial_number"])')
    pk crl revoke --ca "$d/sub" "$serial" --reason keyCompromise
    pk crl gen --ca "$d/sub" -o "$d/crl.pem"
    pk ocsp request --cert "$d/leaf.pem" --issuer "$d/sub/ca.pem" -o "$d/ocsp-req.der"
    pk ocsp respond --ca "$d/sub" --request "$d/ocsp-req.der" --now "$NOW" -o "$d/ocsp-resp.der"
done
pk key gen -a ed25519 --outform der --passout "pass:$PASS" --kdf scrypt -o "$GEN/ed25519/enc-scrypt.der"

# An MTC log: a CA, 300 entries, a checkpoint, certificates, the tiles.
M=$GEN/mtc
for alg in ed25519 ml-dsa-44 ecdsa-p256; do
    pk mtc ca new --dir "$M/$alg" --ca-id 32473.1 --alg "$alg" --now "$NOW"
    python3 -c '
import sys
for i in range(300):
    print("{\"subject\":\"CN=host%d.example\",\"sans\":[\"DNS:host%d.example\"]}" % (i, i))
' >"$M/$alg.jsonl"
    pk mtc add --dir "$M/$alg" --from "$M/$alg.jsonl" --now "$NOW"
    "$PKIT" mtc checkpoint --dir "$M/$alg" --now "$NOW" >"$M/$alg.checkpoint"
    for i in 0 1 255 299; do
        pk mtc cert --dir "$M/$alg" --index $i -o "$M/$alg-cert-$i.pem" --now 2026-01-16T00:00:00Z
    done
    pk mtc tiles --dir "$M/$alg" --out-dir "$M/$alg-tiles"
done

# --- Sorting everything into the targets ------------------------------------------------
PKITS=$ROOT/tests/data/pkits GEN=$GEN VECTORS=$VECTORS OUT=$OUT python3 - <<'EOF'
import base64, hashlib, os, re, struct, glob

out, gen, vec, pkits = (os.environ[k] for k in ("OUT", "GEN", "VECTORS", "PKITS"))

def put(target, data):
    if not data:
        return
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)

LABELS = {
    "CERTIFICATE": "certificate", "X509 CRL": "crl", "CERTIFICATE REQUEST": "csr",
    "NEW CERTIFICATE REQUEST": "csr", "PUBLIC KEY": "spki", "PRIVATE KEY": "pkcs8",
    "ENCRYPTED PRIVATE KEY": "pkcs8", "PKCS7": "pkcs7", "CMS": "pkcs7",
    "OCSP REQUEST": "ocsp_request", "OCSP RESPONSE": "ocsp_response", "PKCS12": "pkcs12",
}
PEM = re.compile(rb"-----BEGIN ([A-Z0-9 #]+)-----\r?\n(.*?)-----END \1-----", re.S)

def by_path(path):
    p = path.lower()
    for key, target in (("ocsp", None), ("pkcs12", "pkcs12"), (".p12", "pkcs12"),
                        ("pkcs7", "pkcs7"), (".p7", "pkcs7"), ("crl", "crl"),
                        ("request", "csr"), ("csr", "csr"), ("/x509/", "certificate"),
                        ("pkits/certs", "certificate"), ("pub", "spki"), ("key", "pkcs8")):
        if key in p:
            if target is None:
                return "ocsp_request" if "req" in os.path.basename(p) else "ocsp_response"
            return target
    return None

def add_file(path, default=None):
    data = open(path, "rb").read()
    if len(data) > 64 * 1024:
        return
    put("detect", data)
    blocks = PEM.findall(data)
    ders = []
    if blocks:
        for label, body in blocks:
            try:
                der = base64.b64decode(b"".join(body.split()))
            except Exception:
                continue
            ders.append((LABELS.get(label.decode()), der))
    else:
        ders.append((default or by_path(path), data))
    for target, der in ders:
        if target:
            put(target, der)
        # What `pkit lint` reads: the objects it has rules for.
        if target in ("certificate", "crl", "csr", "ocsp_response"):
            put("lint", der)
        put("der_strict", der)
        put("der_lenient", der)

for sub in ("x509", "pkcs7", "pkcs12"):
    for path in sorted(glob.glob(os.path.join(vec, sub, "**", "*"), recursive=True)):
        if os.path.isfile(path) and "PKITS_data" not in path:
            add_file(path)
for sub in ("PKCS8", "DER_Serialization", "PEM_Serialization", "MLDSA", "Ed25519"):
    for path in sorted(glob.glob(os.path.join(vec, "asymmetric", sub, "**", "*"), recursive=True)):
        if os.path.isfile(path) and not path.endswith((".txt", ".json")):
            add_file(path)
for path in sorted(glob.glob(os.path.join(pkits, "certs", "*")))[::8]:
    add_file(path, "certificate")
for path in sorted(glob.glob(os.path.join(pkits, "crls", "*")))[::4]:
    add_file(path, "crl")

for path in sorted(glob.glob(os.path.join(gen, "*", "*"))) + sorted(glob.glob(os.path.join(gen, "*", "*", "ca.pem"))):
    name = os.path.basename(path)
    if not os.path.isfile(path):
        continue
    target = {"key.der": "pkcs8", "key-both.der": "pkcs8", "key-expanded.der": "pkcs8",
              "enc-pbkdf2.der": "pkcs8", "enc-scrypt.der": "pkcs8", "pub.der": "spki",
              "ocsp-req.der": "ocsp_request", "ocsp-resp.der": "ocsp_response"}.get(name)
    add_file(path, target)

# MTC: certificates, their proofs (the signatureValue), notes, landmark lists, tiles.
def tlv(data, at):
    tag, n = data[at], data[at + 1]
    at += 2
    if n & 0x80:
        k = n & 0x7f
        n = int.from_bytes(data[at:at + k], "big")
        at += k
    return tag, at, n

for path in sorted(glob.glob(os.path.join(gen, "mtc", "*-cert-*.pem"))):
    der = base64.b64decode(b"".join(PEM.findall(open(path, "rb").read())[0][1].split()))
    put("mtc_cert", der)
    put("certificate", der)
    _, at, n = tlv(der, 0)            # Certificate
    _, b, m = tlv(der, at)            # tbsCertificate
    at = b + m
    _, b, m = tlv(der, at)            # signatureAlgorithm
    at = b + m
    _, b, m = tlv(der, at)            # signatureValue BIT STRING
    put("mtc_proof", der[b + 1:b + m])
for path in sorted(glob.glob(os.path.join(gen, "mtc", "*.checkpoint"))):
    note = open(path, "rb").read()
    put("mtc_checkpoint", note)
    put("detect", note)
    sigs = note.split(b"\n\n", 1)[1]
    put("mtc_tile", b"\x00" + sigs)
for tiles in sorted(glob.glob(os.path.join(gen, "mtc", "*-tiles"))):
    cp = open(os.path.join(tiles, "checkpoint"), "rb").read()
    put("mtc_checkpoint", cp)
    lm = os.path.join(tiles, "landmarks")
    if os.path.exists(lm):
        put("mtc_checkpoint", open(lm, "rb").read())
    lines = cp.split(b"\n")
    size, root = int(lines[1]), base64.b64decode(lines[2])
    pieces = []
    for p in sorted(glob.glob(os.path.join(tiles, "tile", "**", "*"), recursive=True)):
        if os.path.isfile(p):
            pieces.append(open(p, "rb").read())
    for entries in (0, 1):
        put("mtc_tile", b"\x01" + struct.pack(">Q", size) + root + bytes([entries])
            + b"\xff\xfe".join(pieces))
EOF

# The fixtures' own requests.
PKIT_FUZZ_SEEDS=$OUT cargo xtask test --quiet --test fuzz_corpus -- fixture_seeds_replay_and_are_written >/dev/null
# verify_pool reads its input as a structure: a few random starts are enough for the
# fuzzer to find its way into the seed certificates.
mkdir -p "$OUT/verify_pool"
for i in 1 2 3 4 5 6 7 8; do head -c $((i * 64)) /dev/urandom >"$OUT/verify_pool/random-$i"; done

for d in "$OUT"/*; do echo "$(basename "$d"): $(ls "$d" | wc -l) seeds"; done
