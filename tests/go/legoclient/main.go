// legoclient drives lego (github.com/go-acme/lego/v5, the library the lego command is
// built on) against an ACME server, for pkit's tests of `pkit acme serve`:
//
//	legoclient -server URL -state DIR -domains a,b [-challenge http-01|dns-01]
//	           [-http-port N] [-tls-port N] [-dns ADDR] [-eab-kid K -eab-hmac H] [-profile P]
//	           obtain|renew|revoke CERT.pem
//
// obtain writes CERT.pem (the chain); renew asks the server's renewal information
// (RFC 9773) for CERT.pem, renews it with `replaces` and writes CERT.pem.new; revoke
// revokes CERT.pem with the account key. With -dns, a DNS server on ADDR answers A
// 127.0.0.1 for every name and the TXT records lego's dns-01 provider puts up, so the
// ACME server can be pointed at it (`--resolver`). One JSON line reports the result.
package main

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-acme/lego/v5/acme"
	"github.com/go-acme/lego/v5/certcrypto"
	"github.com/go-acme/lego/v5/certificate"
	"github.com/go-acme/lego/v5/challenge/dns01"
	"github.com/go-acme/lego/v5/challenge/http01"
	"github.com/go-acme/lego/v5/challenge/tlsalpn01"
	"github.com/go-acme/lego/v5/lego"
	"github.com/go-acme/lego/v5/registration"
	"github.com/miekg/dns"
)

type user struct {
	key crypto.Signer
	reg *acme.ExtendedAccount
}

func (u *user) GetEmail() string                        { return "" }
func (u *user) GetRegistration() *acme.ExtendedAccount { return u.reg }
func (u *user) GetPrivateKey() crypto.Signer            { return u.key }

// txtRecords holds what the dns-01 provider put up, by FQDN.
var txtRecords sync.Map

type dnsProvider struct{}

func (dnsProvider) Present(ctx context.Context, domain, token, keyAuth string) error {
	info := dns01.GetChallengeInfo(ctx, domain, keyAuth)
	txtRecords.Store(strings.ToLower(info.FQDN), info.Value)
	return nil
}

func (dnsProvider) CleanUp(ctx context.Context, domain, token, keyAuth string) error {
	info := dns01.GetChallengeInfo(ctx, domain, keyAuth)
	txtRecords.Delete(strings.ToLower(info.FQDN))
	return nil
}

func serveDNS(addr string) error {
	handler := dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		m.Authoritative = true
		for _, q := range r.Question {
			switch q.Qtype {
			case dns.TypeA:
				m.Answer = append(m.Answer, &dns.A{
					Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 1},
					A:   net.ParseIP("127.0.0.1"),
				})
			case dns.TypeTXT:
				if v, ok := txtRecords.Load(strings.ToLower(q.Name)); ok {
					m.Answer = append(m.Answer, &dns.TXT{
						Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 1},
						Txt: []string{v.(string)},
					})
				}
			}
		}
		_ = w.WriteMsg(m)
	})
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		return err
	}
	go func() { _ = (&dns.Server{PacketConn: pc, Handler: handler}).ActivateAndServe() }()
	return nil
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "legoclient: "+format+"\n", args...)
	os.Exit(1)
}

// accountKey is the state directory's account key, made on first use.
func accountKey(dir string) crypto.Signer {
	path := filepath.Join(dir, "account.key")
	if data, err := os.ReadFile(path); err == nil {
		block, _ := pem.Decode(data)
		k, err := x509.ParseECPrivateKey(block.Bytes)
		if err != nil {
			fail("%s: %v", path, err)
		}
		return k
	}
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		fail("key: %v", err)
	}
	der, _ := x509.MarshalECPrivateKey(k)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fail("%v", err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		fail("%v", err)
	}
	return k
}

func main() {
	server := flag.String("server", "", "the ACME directory URL")
	state := flag.String("state", "", "directory for the account key")
	domains := flag.String("domains", "", "comma-separated identifiers")
	chall := flag.String("challenge", "http-01", "http-01, dns-01 or tls-alpn-01")
	tlsPort := flag.String("tls-port", "5003", "port of lego's tls-alpn-01 server")
	httpPort := flag.String("http-port", "5002", "port of lego's http-01 server")
	dnsAddr := flag.String("dns", "", "serve DNS on this UDP address")
	eabKid := flag.String("eab-kid", "", "external account binding key id")
	eabHmac := flag.String("eab-hmac", "", "external account binding key (base64url)")
	profile := flag.String("profile", "", "the profile to order")
	keyType := flag.String("key-type", "EC256", "certificate key type (EC256, EC384, RSA2048)")
	flag.Parse()
	if flag.NArg() != 2 {
		fail("expected obtain|renew|revoke CERT.pem")
	}
	mode, certPath := flag.Arg(0), flag.Arg(1)
	ctx := context.Background()
	if *dnsAddr != "" {
		if err := serveDNS(*dnsAddr); err != nil {
			fail("dns server: %v", err)
		}
	}
	u := &user{key: accountKey(*state)}
	cfg := lego.NewConfig(u)
	cfg.CADirURL = *server
	cfg.Certificate.Timeout = 60 * time.Second
	client, err := lego.NewClient(cfg)
	if err != nil {
		fail("client: %v", err)
	}
	if *eabKid != "" {
		u.reg, err = client.Registration.RegisterWithExternalAccountBinding(ctx, registration.RegisterEABOptions{
			TermsOfServiceAgreed: true, Kid: *eabKid, HmacEncoded: *eabHmac,
		})
	} else {
		u.reg, err = client.Registration.Register(ctx, registration.RegisterOptions{TermsOfServiceAgreed: true})
	}
	if err != nil {
		fail("register: %v", err)
	}
	switch *chall {
	case "http-01":
		err = client.Challenge.SetHTTP01Provider(http01.NewProviderServer("127.0.0.1", *httpPort))
	case "tls-alpn-01":
		err = client.Challenge.SetTLSALPN01Provider(tlsalpn01.NewProviderServer("127.0.0.1", *tlsPort))
	case "dns-01":
		_ = os.Setenv("LEGO_DISABLE_CNAME_SUPPORT", "true")
		err = client.Challenge.SetDNS01Provider(dnsProvider{},
			dns01.WrapPreCheck(func(context.Context, string, string, string, dns01.PreCheckFunc) (bool, error) {
				return true, nil
			}))
	default:
		fail("challenge %s", *chall)
	}
	if err != nil {
		fail("challenge provider: %v", err)
	}
	out := map[string]any{"mode": mode, "account": u.reg.Location}
	switch mode {
	case "obtain":
		res, err := client.Certificate.Obtain(ctx, certificate.ObtainRequest{
			Domains: strings.Split(*domains, ","), Bundle: true, Profile: *profile,
			KeyType: certcrypto.KeyType(*keyType),
		})
		if err != nil {
			fail("obtain: %v", err)
		}
		if err := os.WriteFile(certPath, res.Certificate, 0o644); err != nil {
			fail("%v", err)
		}
		out["cert_url"] = res.CertURL
	case "renew", "revoke":
		data, err := os.ReadFile(certPath)
		if err != nil {
			fail("%v", err)
		}
		certs, err := certcrypto.ParsePEMBundle(data)
		if err != nil {
			fail("%s: %v", certPath, err)
		}
		if mode == "revoke" {
			if err := client.Certificate.Revoke(ctx, data); err != nil {
				fail("revoke: %v", err)
			}
			break
		}
		info, err := client.Certificate.GetRenewalInfo(ctx, certs[0])
		if err != nil {
			fail("renewal info: %v", err)
		}
		out["window_start"] = info.SuggestedWindow.Start
		out["window_end"] = info.SuggestedWindow.End
		res, err := client.Certificate.Renew(ctx, certificate.Resource{
			Domains: certs[0].DNSNames, Certificate: data,
		}, &certificate.RenewOptions{Bundle: true, UseARICertID: true, KeyType: certcrypto.KeyType(*keyType)})
		if err != nil {
			fail("renew: %v", err)
		}
		if err := os.WriteFile(certPath+".new", res.Certificate, 0o644); err != nil {
			fail("%v", err)
		}
		out["cert_url"] = res.CertURL
	default:
		fail("mode %s", mode)
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}
