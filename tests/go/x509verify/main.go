// Command x509verify is Go's crypto/x509 as a peer of `pkit verify` in the tests: it
// reads a manifest of chains (tests/peers/make_chains.py writes it) and prints one JSON
// line per case with Go's verdict. Standard library only.
package main

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

type chainCase struct {
	ID            string   `json:"id"`
	Root          string   `json:"root"`
	Intermediates []string `json:"intermediates"`
	Leaf          string   `json:"leaf"`
	Hostname      string   `json:"hostname"`
	IP            string   `json:"ip"`
}

type manifest struct {
	Time  int64       `json:"time"`
	Cases []chainCase `json:"cases"`
}

type verdict struct {
	ID    string `json:"id"`
	Ok    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

func load(dir, name string) (*x509.Certificate, error) {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	if p, _ := pem.Decode(b); p != nil {
		b = p.Bytes
	}
	return x509.ParseCertificate(b)
}

func check(dir string, at time.Time, c chainCase) verdict {
	fail := func(err error) verdict { return verdict{ID: c.ID, Error: err.Error()} }
	root, err := load(dir, c.Root)
	if err != nil {
		return fail(err)
	}
	leaf, err := load(dir, c.Leaf)
	if err != nil {
		return fail(err)
	}
	roots, inters := x509.NewCertPool(), x509.NewCertPool()
	roots.AddCert(root)
	for _, name := range c.Intermediates {
		ic, err := load(dir, name)
		if err != nil {
			return fail(err)
		}
		inters.AddCert(ic)
	}
	name := c.Hostname
	if name == "" {
		name = c.IP
	}
	opts := x509.VerifyOptions{
		DNSName:       name,
		Roots:         roots,
		Intermediates: inters,
		CurrentTime:   at,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if _, err := leaf.Verify(opts); err != nil {
		return fail(err)
	}
	return verdict{ID: c.ID, Ok: true}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: x509verify DIR (DIR/manifest.json)")
		os.Exit(2)
	}
	dir := os.Args[1]
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := json.NewEncoder(os.Stdout)
	for _, c := range m.Cases {
		if err := out.Encode(check(dir, time.Unix(m.Time, 0), c)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}
