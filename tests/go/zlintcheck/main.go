// zlintcheck runs zlint (github.com/zmap/zlint/v3) over certificate and CRL files (a
// PEM "X509 CRL" block, or DER that is not a certificate) and prints,
// per file, the lints that reported an error, a fatal, a warning or a notice, as one
// JSON object per line: {"file": …, "error": […], "warn": […], "notice": […]}. pkit's tests use it as an
// independent judge of what the lint gate lets through.
package main

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"sort"

	"github.com/zmap/zcrypto/x509"
	"github.com/zmap/zlint/v3"
	"github.com/zmap/zlint/v3/lint"
)

func main() {
	out := json.NewEncoder(os.Stdout)
	for _, file := range os.Args[1:] {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		label := ""
		if block, _ := pem.Decode(data); block != nil {
			data, label = block.Bytes, block.Type
		}
		var results *zlint.ResultSet
		if cert, err := x509.ParseCertificate(data); err == nil && label != "X509 CRL" {
			results = zlint.LintCertificate(cert)
		} else if crl, crlErr := x509.ParseRevocationList(data); crlErr == nil {
			results = zlint.LintRevocationList(crl)
		} else {
			fmt.Fprintf(os.Stderr, "%s: neither a certificate (%v) nor a CRL (%v)\n", file, err, crlErr)
			os.Exit(2)
		}
		found := map[string][]string{"error": {}, "warn": {}, "notice": {}}
		for name, r := range results.Results {
			switch r.Status {
			case lint.Error, lint.Fatal:
				found["error"] = append(found["error"], name)
			case lint.Warn:
				found["warn"] = append(found["warn"], name)
			case lint.Notice:
				found["notice"] = append(found["notice"], name)
			}
		}
		sort.Strings(found["error"])
		sort.Strings(found["warn"])
		sort.Strings(found["notice"])
		out.Encode(map[string]any{"file": file, "error": found["error"], "warn": found["warn"], "notice": found["notice"]})
	}
}
