// Command tlogcheck reads a tlog-tiles log over HTTP with golang.org/x/mod/sumdb/tlog, an
// implementation independent of pkit, and checks it:
//
//   - the checkpoint's root hash is the tree hash of the tiles (every tile read is
//     verified against the root by tlog.TileHashReader);
//   - each sampled entry of the entry bundles hashes to the leaf in the level-0 tile, and
//     its RFC 6962 inclusion proof, computed from the tiles, verifies against the root;
//   - given an older checkpoint (-old-size, -old-root), the consistency proof from it to
//     the current one, computed from the tiles, verifies.
//
// x/mod's Tile.Path() adds a height segment C2SP paths do not have, so paths are built
// here. It prints one JSON object and exits 0 when every check passed, 1 otherwise.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// cosignatureV1 verifies tlog-cosignature's Ed25519 note signatures (key type 0x04),
// which note's own verifiers (plain Ed25519, type 0x01) do not know: the signature is
// an 8-byte timestamp and an Ed25519 signature over "cosignature/v1\ntime <t>\n" and
// the note body.
type cosignatureV1 struct {
	name string
	key  ed25519.PublicKey
}

func (v cosignatureV1) Name() string { return v.name }

func (v cosignatureV1) KeyHash() uint32 {
	h := sha256.New()
	h.Write([]byte(v.name + "\n"))
	h.Write([]byte{0x04})
	h.Write(v.key)
	return binary.BigEndian.Uint32(h.Sum(nil)[:4])
}

// subtreeV1 verifies tlog-cosignature's ML-DSA-44 note signatures (key type 0x06):
// an 8-byte timestamp and an ML-DSA-44 signature (empty context) over the subtree/v1
// message for [0, size) of the checkpoint in the note body.
type subtreeV1 struct {
	name string
	key  *mldsa44.PublicKey
	raw  []byte
}

func (v subtreeV1) Name() string { return v.name }

func (v subtreeV1) KeyHash() uint32 {
	h := sha256.New()
	h.Write([]byte(v.name + "\n"))
	h.Write([]byte{0x06})
	h.Write(v.raw)
	return binary.BigEndian.Uint32(h.Sum(nil)[:4])
}

func (v subtreeV1) Verify(msg, sig []byte) bool {
	if len(sig) != 8+mldsa44.SignatureSize {
		return false
	}
	lines := strings.Split(string(msg), "\n")
	if len(lines) < 3 {
		return false
	}
	size, err := strconv.ParseUint(lines[1], 10, 64)
	if err != nil {
		return false
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != 32 {
		return false
	}
	m := []byte("subtree/v1\n\x00")
	m = append(m, byte(len(v.name)))
	m = append(m, v.name...)
	m = append(m, sig[:8]...)
	m = append(m, byte(len(lines[0])))
	m = append(m, lines[0]...)
	m = binary.BigEndian.AppendUint64(m, 0)
	m = binary.BigEndian.AppendUint64(m, size)
	m = append(m, root...)
	return mldsa44.Verify(v.key, m, nil, sig[8:])
}

// cosigners collects -cosigner NAME=TYPE:BASE64KEY flags (TYPE ed25519 or mldsa44).
type cosigners []note.Verifier

func (c *cosigners) String() string { return "" }

func (c *cosigners) Set(s string) error {
	name, rest, ok := strings.Cut(s, "=")
	typ, b64, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return fmt.Errorf("want NAME=TYPE:BASE64KEY")
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return err
	}
	switch typ {
	case "ed25519":
		if len(raw) != ed25519.PublicKeySize {
			return fmt.Errorf("an Ed25519 key is 32 bytes")
		}
		*c = append(*c, cosignatureV1{name, raw})
	case "mldsa44":
		var pk mldsa44.PublicKey
		if err := pk.UnmarshalBinary(raw); err != nil {
			return err
		}
		*c = append(*c, subtreeV1{name, &pk, raw})
	default:
		return fmt.Errorf("unknown key type %q", typ)
	}
	return nil
}

func (v cosignatureV1) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig[:8])
	m := append([]byte(fmt.Sprintf("cosignature/v1\ntime %d\n", t)), msg...)
	return ed25519.Verify(v.key, m, sig[8:])
}

var client = &http.Client{Timeout: 10 * time.Second}

func get(url string) ([]byte, error) {
	resp, err := client.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<24))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: HTTP %d", url, resp.StatusCode)
	}
	return body, nil
}

// indexPath writes N as tlog-tiles does: 3-digit groups, all but the last prefixed with x.
func indexPath(n int64) string {
	s := fmt.Sprintf("%03d", n%1000)
	for n >= 1000 {
		n /= 1000
		s = fmt.Sprintf("x%03d/%s", n%1000, s)
	}
	return s
}

func tilePath(t tlog.Tile) string {
	p := fmt.Sprintf("tile/%d/%s", t.L, indexPath(t.N))
	if t.W != 256 {
		p += fmt.Sprintf(".p/%d", t.W)
	}
	return p
}

type reader struct {
	base    string
	fetched int
}

func (r *reader) Height() int { return 8 }

func (r *reader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		b, err := get(r.base + "/" + tilePath(t))
		if err != nil {
			return nil, err
		}
		r.fetched++
		out[i] = b
	}
	return out, nil
}

func (r *reader) SaveTiles([]tlog.Tile, [][]byte) {}

func readJSON(path string, v any) {
	b, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		fail("%s: %v", path, err)
	}
}

func hexHashes(hs []string) []tlog.Hash {
	out := make([]tlog.Hash, len(hs))
	for i, h := range hs {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			fail("not a hex SHA-256 hash: %q", h)
		}
		copy(out[i][:], b)
	}
	return out
}

func fail(format string, a ...any) {
	json.NewEncoder(os.Stdout).Encode(map[string]any{"ok": false, "error": fmt.Sprintf(format, a...)})
	os.Exit(1)
}

func main() {
	oldSize := flag.Int64("old-size", 0, "an earlier checkpoint's tree size")
	oldRoot := flag.String("old-root", "", "that checkpoint's root hash (base64)")
	samples := flag.Int("samples", 16, "entries whose inclusion is checked")
	inclusion := flag.String("inclusion", "", "a `pkit mtc proof -f json` file: its inclusion proof is checked against the tiles and root")
	consistency := flag.String("consistency", "", "a `pkit mtc consistency -f json` file: its proof is checked against the tiles and root")
	var signers cosigners
	flag.Var(&signers, "cosigner", "NAME=TYPE:BASE64KEY (ed25519 or mldsa44): a cosigner whose signature the checkpoint must carry (repeatable)")
	flag.Parse()
	base := strings.TrimSuffix(flag.Arg(0), "/")
	noteText, err := get(base + "/checkpoint")
	if err != nil {
		fail("%v", err)
	}
	signedBy := []string{}
	if len(signers) > 0 {
		n, err := note.Open(noteText, note.VerifierList(signers...))
		if err != nil {
			fail("checkpoint signature: %v", err)
		}
		for _, s := range n.Sigs {
			signedBy = append(signedBy, s.Name)
		}
		if len(n.Sigs) != len(signers) {
			fail("checkpoint: %d of %d cosigners' signatures verified", len(n.Sigs), len(signers))
		}
	}
	lines := strings.SplitN(string(noteText), "\n", 4)
	if len(lines) < 4 {
		fail("checkpoint: too few lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("checkpoint size: %v", err)
	}
	rootBytes, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(rootBytes) != 32 {
		fail("checkpoint root: %v", err)
	}
	var root tlog.Hash
	copy(root[:], rootBytes)
	tree := tlog.Tree{N: size, Hash: root}
	r := &reader{base: base}
	hr := tlog.TileHashReader(tree, r)
	th, err := tlog.TreeHash(size, hr)
	if err != nil {
		fail("tree hash from the tiles: %v", err)
	}
	if th != root {
		fail("tree hash from the tiles %v differs from the checkpoint's %v", th, root)
	}
	checked := 0
	bundles := map[int64][][]byte{}
	for k := 0; k < *samples && int64(k) < size; k++ {
		i := int64(k) * size / int64(*samples)
		if k == *samples-1 {
			i = size - 1
		}
		n := i / 256
		entries, ok := bundles[n]
		if !ok {
			w := size - n*256
			if w > 256 {
				w = 256
			}
			p := "tile/entries/" + indexPath(n)
			if w != 256 {
				p += fmt.Sprintf(".p/%d", w)
			}
			b, err := get(base + "/" + p)
			if err != nil {
				fail("%v", err)
			}
			for len(b) > 0 {
				if len(b) < 2 {
					fail("%s: truncated length", p)
				}
				l := int(binary.BigEndian.Uint16(b))
				if len(b) < 2+l {
					fail("%s: truncated entry", p)
				}
				entries = append(entries, b[2:2+l])
				b = b[2+l:]
			}
			if int64(len(entries)) != w {
				fail("%s: %d entries, want %d", p, len(entries), w)
			}
			bundles[n] = entries
		}
		leaf := tlog.RecordHash(entries[i-n*256])
		hs, err := hr.ReadHashes([]int64{tlog.StoredHashIndex(0, i)})
		if err != nil {
			fail("leaf %d: %v", i, err)
		}
		if !bytes.Equal(hs[0][:], leaf[:]) {
			fail("entry %d does not hash to its leaf in the level-0 tile", i)
		}
		proof, err := tlog.ProveRecord(size, i, hr)
		if err != nil {
			fail("inclusion proof of %d: %v", i, err)
		}
		if err := tlog.CheckRecord(proof, size, root, i, leaf); err != nil {
			fail("inclusion proof of %d: %v", i, err)
		}
		checked++
	}
	pkitProofs := 0
	if *inclusion != "" {
		var doc struct {
			Items []struct {
				Index int64    `json:"index"`
				Start int64    `json:"start"`
				End   int64    `json:"end"`
				Proof []string `json:"proof"`
			} `json:"items"`
		}
		readJSON(*inclusion, &doc)
		it := doc.Items[0]
		if it.Start != 0 || it.End != size {
			fail("-inclusion: a proof in [%d, %d), not in the tree of %d", it.Start, it.End, size)
		}
		leaf, err := hr.ReadHashes([]int64{tlog.StoredHashIndex(0, it.Index)})
		if err != nil {
			fail("leaf %d: %v", it.Index, err)
		}
		if err := tlog.CheckRecord(hexHashes(it.Proof), size, root, it.Index, leaf[0]); err != nil {
			fail("pkit's inclusion proof of %d: %v", it.Index, err)
		}
		pkitProofs++
	}
	if *consistency != "" {
		var doc struct {
			Items []struct {
				Old     int64    `json:"old"`
				New     int64    `json:"new"`
				OldRoot string   `json:"old_root"`
				Proof   []string `json:"proof"`
			} `json:"items"`
		}
		readJSON(*consistency, &doc)
		it := doc.Items[0]
		if it.New != size {
			fail("-consistency: a proof to size %d, not %d", it.New, size)
		}
		oldRoot, err := tlog.TreeHash(it.Old, hr)
		if err != nil {
			fail("root of size %d from the tiles: %v", it.Old, err)
		}
		if hexHashes([]string{it.OldRoot})[0] != oldRoot {
			fail("pkit's root of size %d differs from the tiles'", it.Old)
		}
		if err := tlog.CheckTree(hexHashes(it.Proof), size, root, it.Old, oldRoot); err != nil {
			fail("pkit's consistency proof %d -> %d: %v", it.Old, size, err)
		}
		pkitProofs++
	}
	consistent := false
	if *oldSize > 0 {
		ob, err := base64.StdEncoding.DecodeString(*oldRoot)
		if err != nil || len(ob) != 32 {
			fail("-old-root: %v", err)
		}
		var old tlog.Hash
		copy(old[:], ob)
		p, err := tlog.ProveTree(size, *oldSize, hr)
		if err != nil {
			fail("consistency proof %d -> %d: %v", *oldSize, size, err)
		}
		if err := tlog.CheckTree(p, size, root, *oldSize, old); err != nil {
			fail("consistency %d -> %d: %v", *oldSize, size, err)
		}
		consistent = true
	}
	json.NewEncoder(os.Stdout).Encode(map[string]any{
		"ok": true, "size": size, "root": lines[2], "tiles_fetched": r.fetched,
		"entries_checked": checked, "consistent_with_old": consistent, "signed_by": signedBy,
		"pkit_proofs_checked": pkitProofs,
	})
}
