"""RFC 9162's Merkle tree over leaf hashes (§2.1.1) and its verifiers of inclusion
(§2.1.3.2) and consistency (§2.1.4.2) proofs, written from the RFC's text and run by
Python's hashlib: nothing of pkit's `mtc::tree`. tests/peers/mtc_verify.py imports it.

Run as a script (tests/mtc_cli.rs): reads on stdin the entry hashes (`leaves`),
checkpoint notes (`notes`), `mtc proof` items (`inclusion`) and `mtc consistency` items
(`consistency`); checks each, and that each proof with one hash flipped, one dropped, one
added, or the two roots swapped, fails. Prints what it checked.
"""
import base64, hashlib, json, sys

def node(l, r):
    return hashlib.sha256(b"\x01" + l + r).digest()

def mth(leaves):
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return node(mth(leaves[:k]), mth(leaves[k:]))

def inclusion_root(index, size, leaf, path):
    """The root PATH leads to from `leaf` at `index` of a tree of `size` leaves
    (§2.1.3.2), or None when the path does not fit the tree."""
    if index >= size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def inclusion_ok(index, size, leaf, root, path):
    return inclusion_root(index, size, leaf, path) == root


def consistency_ok(first, second, first_hash, second_hash, path):
    if first == second:
        return not path and first_hash == second_hash
    if first == 0 or first > second or not path:
        return False
    if first & (first - 1) == 0:
        path = [first_hash] + path
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node(c, fr)
            sr = node(c, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == first_hash and sr == second_hash

def mutants(path):
    for i in range(len(path)):
        flipped = list(path)
        flipped[i] = bytes([flipped[i][0] ^ 1]) + flipped[i][1:]
        yield "flip %d" % i, flipped
        yield "drop %d" % i, path[:i] + path[i + 1:]
    yield "extra", path + [hashlib.sha256(b"extra").digest()]


def main():
    h = bytes.fromhex
    doc = json.load(sys.stdin)
    leaves = [h(x) for x in doc["leaves"]]
    counts = {"notes": 0, "inclusion": 0, "consistency": 0, "refused": 0}
    for size, root in doc["notes"]:
        assert base64.b64decode(root) == mth(leaves[:size]), ("note", size)
        counts["notes"] += 1
    for p in doc["inclusion"]:
        i, start, end = p["index"], p["start"], p["end"]
        root, path = h(p["subtree_hash"]), [h(x) for x in p["proof"]]
        assert h(p["entry_hash"]) == leaves[i], p
        assert root == mth(leaves[start:end]), p
        assert inclusion_ok(i - start, end - start, leaves[i], root, path), p
        counts["inclusion"] += 1
        for what, bad in mutants(path):
            assert not inclusion_ok(i - start, end - start, leaves[i], root, bad), (what, p)
            counts["refused"] += 1
    for p in doc["consistency"]:
        m, n = p["old"], p["new"]
        old, new, path = h(p["old_root"]), h(p["new_root"]), [h(x) for x in p["proof"]]
        assert old == mth(leaves[:m]) and new == mth(leaves[:n]), p
        assert consistency_ok(m, n, old, new, path), p
        counts["consistency"] += 1
        if m == n:
            continue
        for what, bad in mutants(path):
            assert not consistency_ok(m, n, old, new, bad), (what, p)
            counts["refused"] += 1
        assert not consistency_ok(m, n, new, old, path), ("roots swapped", p)
        counts["refused"] += 1
    print(json.dumps(counts, sort_keys=True))


if __name__ == "__main__":
    main()
