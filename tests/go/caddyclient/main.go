// Command caddyclient drives CertMagic, the library Caddy gets and renews its
// certificates with (`acme_ca` in a Caddyfile configures exactly this issuer), against
// `pkit acme serve` on 127.0.0.1, for tests/acme_cli.rs.
//
//	caddyclient -server URL -ca CA.pem -storage DIR -domain NAME [-challenge http-01|tls-alpn-01]
//	            [-http-port N] [-tls-port N] obtain|renew OUT.pem
//
// obtain gets a certificate for NAME (a DNS name or an address), renew forces its
// renewal (CertMagic asks for the renewal window, RFC 9773, and orders with `replaces`);
// each writes the chain it got to OUT.pem and prints one JSON line.
package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/caddyserver/certmagic"
)

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "caddyclient: "+format+"\n", a...)
	os.Exit(1)
}

func main() {
	server := flag.String("server", "", "the ACME directory URL")
	caFile := flag.String("ca", "", "the CA certificate (PEM) the server's HTTPS chains to")
	storage := flag.String("storage", "", "CertMagic's storage directory (account, certificates)")
	domain := flag.String("domain", "", "the name or address to certify")
	challenge := flag.String("challenge", "http-01", "http-01 or tls-alpn-01")
	httpPort := flag.Int("http-port", 5002, "the port CertMagic answers http-01 on")
	tlsPort := flag.Int("tls-port", 5003, "the port CertMagic answers tls-alpn-01 on")
	flag.Parse()
	if flag.NArg() != 2 {
		fail("usage: caddyclient [flags] obtain|renew OUT.pem")
	}
	mode, out := flag.Arg(0), flag.Arg(1)
	roots := x509.NewCertPool()
	caPEM, err := os.ReadFile(*caFile)
	if err != nil || !roots.AppendCertsFromPEM(caPEM) {
		fail("%s: no CA certificate (%v)", *caFile, err)
	}
	var cfg *certmagic.Config
	cache := certmagic.NewCache(certmagic.CacheOptions{
		GetConfigForCert: func(certmagic.Certificate) (*certmagic.Config, error) { return cfg, nil },
	})
	defer cache.Stop()
	cfg = certmagic.New(cache, certmagic.Config{
		Storage: &certmagic.FileStorage{Path: *storage},
		// pkit's CA certificate names no OCSP responder here; nothing to staple.
		OCSP: certmagic.OCSPConfig{DisableStapling: true},
	})
	issuer := certmagic.NewACMEIssuer(cfg, certmagic.ACMEIssuer{
		CA:                      *server,
		Email:                   "ops@example.com",
		Agreed:                  true,
		TrustedRoots:            roots,
		ListenHost:              "127.0.0.1",
		AltHTTPPort:             *httpPort,
		AltTLSALPNPort:          *tlsPort,
		DisableHTTPChallenge:    *challenge != "http-01",
		DisableTLSALPNChallenge: *challenge != "tls-alpn-01",
	})
	cfg.Issuers = []certmagic.Issuer{issuer}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	switch mode {
	case "obtain":
		err = cfg.ObtainCertSync(ctx, *domain)
	case "renew":
		if _, err = cfg.CacheManagedCertificate(ctx, *domain); err == nil {
			err = cfg.RenewCertSync(ctx, *domain, true)
		}
	default:
		fail("mode %s", mode)
	}
	if err != nil {
		fail("%s %s: %v", mode, *domain, err)
	}
	cert, err := cfg.CacheManagedCertificate(ctx, *domain)
	if err != nil {
		fail("reading the certificate back: %v", err)
	}
	var chain []byte
	for _, der := range cert.Certificate.Certificate {
		chain = append(chain, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})...)
	}
	if err := os.WriteFile(out, chain, 0o644); err != nil {
		fail("%v", err)
	}
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{
		"mode":   mode,
		"names":  cert.Names,
		"serial": cert.Leaf.SerialNumber.Text(16),
		"issuer": cert.Leaf.Issuer.String(),
	})
}
