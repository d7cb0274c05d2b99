// legoclient drives lego (github.com/go-acme/lego/v5, the library the lego command is
// built on) against an ACME server, for pkit's tests of `pkit acme serve`:
//
//	legoclient -server URL -state DIR -domains a,b [-challenge http-01|dns-01]
//	           [-http-port N] [-tls-port N] [-dns ADDR [-zone FILE]] [-eab-kid K -eab-hmac H]
//	           [-profile P] obtain|renew|revoke CERT.pem
//	legoclient -dns ADDR [-zone FILE] [-lifetime D] dns
//
// obtain writes CERT.pem (the chain); renew asks the server's renewal information
// (RFC 9773) for CERT.pem, renews it with `replaces` and writes CERT.pem.new; revoke
// revokes CERT.pem with the account key. With -dns, a DNS server on ADDR (UDP) answers
// the TXT records lego's dns-01 provider puts up, the records of -zone, and A 127.0.0.1
// for every name the zone gives no address, so the ACME server can be pointed at it
// (`--resolver`). One JSON line reports the result. `dns` only serves DNS, until killed
// or -lifetime has passed, for clients other than lego; it says so on stderr first.
//
// The zone file has one record a line in zone-file form, fully qualified
// (`allow.test. CAA 0 issue "ca.example"`; CNAMEs are followed as a recursive resolver
// follows them), or `NAME SERVFAIL` for a name every question about fails; `#` starts
// a comment line.
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

func (u *user) GetEmail() string                       { return "" }
func (u *user) GetRegistration() *acme.ExtendedAccount { return u.reg }
func (u *user) GetPrivateKey() crypto.Signer           { return u.key }

// txtRecords holds what the dns-01 provider put up, by FQDN.
var txtRecords sync.Map

type dnsProvider struct{}

func (dnsProvider) Present(ctx context.Context, domain, token, keyAuth string) error {
	info := dns01.GetChallengeInfo(ctx, domain, keyAuth)
	txtRecords.Store(strings.ToLower(info.FQDN), info.Value)
	return nil
}

// Timeout lets lego ask for validation a tenth of a second after Present rather than
// its default two: the records are served the moment Present returns.
func (dnsProvider) Timeout() (timeout, interval time.Duration) {
	return 10 * time.Second, 100 * time.Millisecond
}

func (dnsProvider) CleanUp(ctx context.Context, domain, token, keyAuth string) error {
	info := dns01.GetChallengeInfo(ctx, domain, keyAuth)
	txtRecords.Delete(strings.ToLower(info.FQDN))
	return nil
}

// zone is what -zone serves: records by lower-case FQDN, and the names that fail.
type zone struct {
	records  map[string][]dns.RR
	servfail map[string]bool
}

func readZone(path string) (*zone, error) {
	z := &zone{records: map[string][]dns.RR{}, servfail: map[string]bool{}}
	if path == "" {
		return z, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if f := strings.Fields(line); len(f) == 2 && f[1] == "SERVFAIL" {
			z.servfail[strings.ToLower(dns.Fqdn(f[0]))] = true
			continue
		}
		rr, err := dns.NewRR(line)
		if err != nil || rr == nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		name := strings.ToLower(rr.Header().Name)
		z.records[name] = append(z.records[name], rr)
	}
	return z, nil
}

// answer adds to m the answer to q: a failure, or the records of the name (after its
// CNAMEs, a few at most) and type.
func (z *zone) answer(m *dns.Msg, q dns.Question) {
	owner := q.Name
	for hop := 0; hop < 8 && q.Qtype != dns.TypeCNAME; hop++ {
		var next *dns.CNAME
		for _, rr := range z.records[strings.ToLower(owner)] {
			if c, ok := rr.(*dns.CNAME); ok {
				next = c
			}
		}
		if next == nil {
			break
		}
		m.Answer = append(m.Answer, next)
		owner = next.Target
	}
	if z.servfail[strings.ToLower(owner)] {
		m.Rcode = dns.RcodeServerFailure
		m.Answer = nil
		return
	}
	found := false
	for _, rr := range z.records[strings.ToLower(owner)] {
		if rr.Header().Rrtype == q.Qtype {
			m.Answer = append(m.Answer, rr)
			found = true
		}
	}
	if found {
		return
	}
	switch q.Qtype {
	case dns.TypeA:
		m.Answer = append(m.Answer, &dns.A{
			Hdr: dns.RR_Header{Name: owner, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 1},
			A:   net.ParseIP("127.0.0.1"),
		})
	case dns.TypeTXT:
		if v, ok := txtRecords.Load(strings.ToLower(owner)); ok {
			m.Answer = append(m.Answer, &dns.TXT{
				Hdr: dns.RR_Header{Name: owner, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 1},
				Txt: []string{v.(string)},
			})
		}
	}
}

func serveDNS(addr string, z *zone) error {
	handler := dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		m.Authoritative = true
		for _, q := range r.Question {
			z.answer(m, q)
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
	zoneFile := flag.String("zone", "", "records the DNS server serves (with -dns)")
	lifetime := flag.Duration("lifetime", 10*time.Minute, "how long `dns` serves")
	eabKid := flag.String("eab-kid", "", "external account binding key id")
	eabHmac := flag.String("eab-hmac", "", "external account binding key (base64url)")
	profile := flag.String("profile", "", "the profile to order")
	keyType := flag.String("key-type", "EC256", "certificate key type (EC256, EC384, RSA2048)")
	flag.Parse()
	if *dnsAddr != "" {
		z, err := readZone(*zoneFile)
		if err != nil {
			fail("zone: %v", err)
		}
		if err := serveDNS(*dnsAddr, z); err != nil {
			fail("dns server: %v", err)
		}
	}
	if flag.NArg() == 1 && flag.Arg(0) == "dns" {
		if *dnsAddr == "" {
			fail("dns needs -dns ADDR")
		}
		fmt.Fprintf(os.Stderr, "legoclient: serving DNS on %s\n", *dnsAddr)
		time.Sleep(*lifetime)
		return
	}
	if flag.NArg() != 2 {
		fail("expected obtain|renew|revoke CERT.pem, or dns")
	}
	mode, certPath := flag.Arg(0), flag.Arg(1)
	ctx := context.Background()
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
