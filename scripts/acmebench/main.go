// acmebench drives an ACME server with N concurrent clients, each completing orders end
// to end (new order, http-01 answered from this process, challenge, poll, finalize with
// a fresh P-256 CSR, certificate download), and reports orders per second, the latency
// of an order (p50, p99) and how many failed. Go's standard library only.
//
//	acmebench -directory URL -ca CA.pem -http-port N -clients C -orders M
//
// Every client has its own account; every order names an IP address of its own in
// 127.0.0.0/8 (RFC 8738), so that each is validated by http-01: this process answers on
// 0.0.0.0:PORT, which every loopback address reaches.
package main

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

var (
	b64     = base64.RawURLEncoding
	tokens  sync.Map
	client  *http.Client
	dirURLs map[string]any
)

type account struct {
	key   *ecdsa.PrivateKey
	kid   string
	nonce string
	thumb string
}

func jwk(k *ecdsa.PublicKey) map[string]string {
	pad := func(b *big.Int) string { return b64.EncodeToString(b.FillBytes(make([]byte, 32))) }
	return map[string]string{"crv": "P-256", "kty": "EC", "x": pad(k.X), "y": pad(k.Y)}
}

func thumbprint(k *ecdsa.PublicKey) string {
	j := jwk(k)
	s := fmt.Sprintf(`{"crv":"%s","kty":"%s","x":"%s","y":"%s"}`, j["crv"], j["kty"], j["x"], j["y"])
	h := sha256.Sum256([]byte(s))
	return b64.EncodeToString(h[:])
}

func (a *account) post(url string, payload any) (*http.Response, []byte, error) {
	if a.nonce == "" {
		r, err := client.Head(dirURLs["newNonce"].(string))
		if err != nil {
			return nil, nil, err
		}
		r.Body.Close()
		a.nonce = r.Header.Get("Replay-Nonce")
	}
	prot := map[string]any{"alg": "ES256", "nonce": a.nonce, "url": url}
	if a.kid == "" {
		prot["jwk"] = jwk(&a.key.PublicKey)
	} else {
		prot["kid"] = a.kid
	}
	pj, _ := json.Marshal(prot)
	p := b64.EncodeToString(pj)
	pl := ""
	if payload != nil {
		b, _ := json.Marshal(payload)
		pl = b64.EncodeToString(b)
	}
	h := sha256.Sum256([]byte(p + "." + pl))
	r, s, err := ecdsa.Sign(rand.Reader, a.key, h[:])
	if err != nil {
		return nil, nil, err
	}
	sig := append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
	body, _ := json.Marshal(map[string]string{"protected": p, "payload": pl, "signature": b64.EncodeToString(sig)})
	resp, err := client.Post(url, "application/jose+json", bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	a.nonce = resp.Header.Get("Replay-Nonce")
	if err == nil && resp.StatusCode >= 400 {
		err = fmt.Errorf("%s: HTTP %d: %s", url, resp.StatusCode, data)
	}
	return resp, data, err
}

func newAccount() (*account, error) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	a := &account{key: k, thumb: thumbprint(&k.PublicKey)}
	resp, _, err := a.post(dirURLs["newAccount"].(string), map[string]any{"termsOfServiceAgreed": true})
	if err != nil {
		return nil, err
	}
	a.kid = resp.Header.Get("Location")
	return a, nil
}

// order runs one order for the address `ip` to its certificate.
func (a *account) order(ip string) error {
	resp, data, err := a.post(dirURLs["newOrder"].(string), map[string]any{
		"identifiers": []map[string]string{{"type": "ip", "value": ip}}})
	if err != nil {
		return err
	}
	orderURL := resp.Header.Get("Location")
	var o struct {
		Status         string
		Authorizations []string
		Finalize       string
		Certificate    string
	}
	_ = json.Unmarshal(data, &o)
	for _, az := range o.Authorizations {
		_, data, err := a.post(az, nil)
		if err != nil {
			return err
		}
		var z struct {
			Status     string
			Challenges []struct{ Type, URL, Token string }
		}
		_ = json.Unmarshal(data, &z)
		if z.Status == "valid" {
			continue
		}
		for _, c := range z.Challenges {
			if c.Type != "http-01" {
				continue
			}
			tokens.Store(c.Token, c.Token+"."+a.thumb)
			if _, _, err := a.post(c.URL, map[string]any{}); err != nil {
				return err
			}
		}
		for i := 0; ; i++ {
			_, data, err := a.post(az, nil)
			if err != nil {
				return err
			}
			_ = json.Unmarshal(data, &z)
			if z.Status == "valid" {
				break
			}
			if z.Status != "pending" || i > 400 {
				return fmt.Errorf("authorization %s: %s", az, data)
			}
			time.Sleep(25 * time.Millisecond)
		}
	}
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	csr, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{
		Subject: pkix.Name{}, IPAddresses: []net.IP{net.ParseIP(ip)}}, crypto.Signer(k))
	if err != nil {
		return err
	}
	if _, data, err = a.post(o.Finalize, map[string]string{"csr": b64.EncodeToString(csr)}); err != nil {
		return err
	}
	_ = json.Unmarshal(data, &o)
	for i := 0; o.Status != "valid"; i++ {
		if o.Status == "invalid" || i > 400 {
			return fmt.Errorf("order %s: %s", orderURL, data)
		}
		time.Sleep(25 * time.Millisecond)
		if _, data, err = a.post(orderURL, nil); err != nil {
			return err
		}
		_ = json.Unmarshal(data, &o)
	}
	_, pemChain, err := a.post(o.Certificate, nil)
	if err == nil && !strings.Contains(string(pemChain), "BEGIN CERTIFICATE") {
		err = fmt.Errorf("no certificate at %s", o.Certificate)
	}
	return err
}

func main() {
	directory := flag.String("directory", "", "the ACME directory URL")
	caFile := flag.String("ca", "", "the CA certificate the server's HTTPS chains to")
	httpPort := flag.Int("http-port", 5002, "port to answer http-01 on (0.0.0.0)")
	clients := flag.Int("clients", 8, "concurrent clients, each with its own account")
	orders := flag.Int("orders", 100, "orders per client")
	flag.Parse()
	pool := x509.NewCertPool()
	if pemCA, err := os.ReadFile(*caFile); err == nil {
		pool.AppendCertsFromPEM(pemCA)
	}
	client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: *clients * 2}}
	go func() {
		_ = http.ListenAndServe(fmt.Sprintf("0.0.0.0:%d", *httpPort), http.HandlerFunc(
			func(w http.ResponseWriter, r *http.Request) {
				t := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
				if v, ok := tokens.Load(t); ok {
					_, _ = io.WriteString(w, v.(string))
					return
				}
				http.NotFound(w, r)
			}))
	}()
	resp, err := client.Get(*directory)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acmebench:", err)
		os.Exit(1)
	}
	_ = json.NewDecoder(resp.Body).Decode(&dirURLs)
	resp.Body.Close()
	accounts := make([]*account, *clients)
	for i := range accounts {
		if accounts[i], err = newAccount(); err != nil {
			fmt.Fprintln(os.Stderr, "acmebench: account:", err)
			os.Exit(1)
		}
	}
	var mu sync.Mutex
	var lat []time.Duration
	failed := 0
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for c, a := range accounts {
		wg.Add(1)
		go func(c int, a *account) {
			defer wg.Done()
			for j := 0; j < *orders; j++ {
				t := time.Now()
				err := a.order(fmt.Sprintf("127.%d.%d.%d", 1+c%250, j/250%250, 1+j%250))
				mu.Lock()
				if err != nil {
					failed++
					if firstErr == nil {
						firstErr = err
					}
				} else {
					lat = append(lat, time.Since(t))
				}
				mu.Unlock()
			}
		}(c, a)
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000
	}
	// The load's own CPU (this process, start to end): on a machine the server shares,
	// what the clients took from it.
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	out := map[string]any{"clients": *clients, "orders": len(lat), "failed": failed,
		"seconds": secs, "orders_per_second": float64(len(lat)) / secs,
		"p50_ms": pct(0.5), "p99_ms": pct(0.99), "cpu_seconds": cpu}
	if firstErr != nil {
		out["first_error"] = firstErr.Error()
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}
