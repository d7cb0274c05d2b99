//! Worked examples, by command: each man page's EXAMPLES section (`gen-docs`). Every
//! line is parsed by the command-line definition in this file's tests, as are the `$ pkit
//! …` lines of the README, so an example that names a flag the binary lost fails the
//! build's tests instead of a reader.

/// The examples of one command, by its path (`pkit issue cert`): what each does, then
/// the command line.
pub const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "pkit",
        &[
            (
                "Summarize the system's root store",
                "pkit parse /etc/ssl/certs/ca-certificates.crt --summary",
            ),
            (
                "A two-tier CA and a server certificate from it",
                "pkit issue ca --dir root --subject 'CN=Example Root' --alg ecdsa-p384 --days 3650",
            ),
            (
                "",
                "pkit issue ca --dir int --parent root --subject 'CN=Example Issuing CA' --days 1825",
            ),
            (
                "",
                "pkit issue cert --ca int --san DNS:www.example.com --key-out www.key -o www.pem --bundle",
            ),
            (
                "Check it as a TLS client would",
                "pkit verify --roots root/ca.pem --hostname www.example.com --purpose server www.pem",
            ),
        ],
    ),
    (
        "pkit parse",
        &[
            ("Show a certificate", "pkit parse /etc/ssl/certs/ISRG_Root_X2.pem"),
            (
                "Every object of a bundle as JSON lines",
                "pkit parse /etc/ssl/certs/ca-certificates.crt -f jsonl",
            ),
            (
                "Counts, key types and expiry of a bundle",
                "pkit parse /etc/ssl/certs/ca-certificates.crt --summary -f json",
            ),
            (
                "The ASN.1 tree, with offsets",
                "pkit parse /etc/ssl/certs/ISRG_Root_X2.pem -f asn1",
            ),
            (
                "Convert PEM to DER",
                "pkit parse /etc/ssl/certs/ISRG_Root_X2.pem -f der -o x2.der",
            ),
            (
                "Judge validity as of another day",
                "pkit parse x2.der --now 2041-01-01T00:00:00Z",
            ),
        ],
    ),
    (
        "pkit key gen",
        &[
            (
                "An ML-DSA-65 key, PKCS#8 PEM",
                "pkit key gen --alg ml-dsa-65 -o key.pem",
            ),
            (
                "A P-256 key encrypted under a password from the environment",
                "pkit key gen --alg ecdsa-p256 -o key.pem --passout env:KEY_PW",
            ),
        ],
    ),
    (
        "pkit key pub",
        &[("The public key of a private key", "pkit key pub key.pem -o pub.pem")],
    ),
    (
        "pkit key p12",
        &[
            (
                "A PKCS#12 file for Windows, Java or a browser",
                "pkit key p12 --cert www.pem --key www.key --out www.p12 --passout env:P12_PW",
            ),
            (
                "One that Windows Server 2016 and Java 8 open (weak: PBE-SHA1-3DES, SHA-1 MAC)",
                "pkit key p12 --cert www.pem --key www.key --out www-old.p12 --passout env:P12_PW --legacy",
            ),
        ],
    ),
    (
        "pkit issue ca",
        &[
            (
                "A root CA whose key is encrypted",
                "pkit issue ca --dir root --subject 'CN=Example Root,O=Example' --alg ecdsa-p384 --days 3650 --passout env:ROOT_PW",
            ),
            (
                "An intermediate signed by it, allowed names under corp.example only",
                "pkit issue ca --dir int --parent root --parent-passin env:ROOT_PW --no-passout --subject 'CN=Example Issuing CA' --permit DNS:corp.example",
            ),
            (
                "The CA's records on a PostgreSQL server",
                "pkit issue ca --dir shared --subject 'CN=Shared CA' --db postgres://pkit@db.example/ca --db-passin env:PGPASS",
            ),
        ],
    ),
    (
        "pkit issue cert",
        &[
            (
                "A server certificate and its key, with the chain",
                "pkit issue cert --ca int --subject CN=www.example.com --san DNS:www.example.com --san IP:192.0.2.1 --key-out www.key -o www.pem --bundle",
            ),
            (
                "From a CSR, for a TLS server that is also a client",
                "pkit issue cert --ca int --csr api.csr --profile server-client -o api.pem",
            ),
        ],
    ),
    (
        "pkit issue csr",
        &[(
            "A CSR for an existing key",
            "pkit issue csr --key www.key --subject /CN=www.example.com/O=Example --san DNS:www.example.com -o www.csr",
        )],
    ),
    (
        "pkit issue batch",
        &[
            (
                "Ten thousand certificates, one JSON line each",
                "pkit issue batch --ca int --count 10000 --subject-template CN=host-{n}.example --out-dir out",
            ),
            (
                "The certificates a manifest names",
                "pkit issue batch --ca int --from manifest.jsonl --out-dir out2",
            ),
        ],
    ),
    (
        "pkit issue renew",
        &[
            (
                "Renew when 30 days or less remain (exit 0 and nothing written otherwise)",
                "pkit issue renew --ca int --cert www.pem --key-out www2.key -o www2.pem --bundle --within 30d",
            ),
            (
                "From cron: in place, quiet when nothing is due, nginx reloaded after a renewal",
                "pkit issue renew --ca int --cert www.pem --key-out www.key -o www.pem --bundle --force --within 30d -q --exec 'systemctl reload nginx'",
            ),
        ],
    ),
    (
        "pkit issue list",
        &[
            (
                "What expires within 30 days",
                "pkit issue list --ca int --expiring 30d",
            ),
            (
                "Revoked certificates, as JSON",
                "pkit issue list --ca int --status revoked -f json",
            ),
            (
                "Certificates a killed batch never delivered",
                "pkit issue list --ca int --undelivered",
            ),
        ],
    ),
    (
        "pkit issue export",
        &[(
            "A certificate again, by its serial",
            "pkit issue export --ca int 6621dd6d1e105ed17e981ea2a227147f4c1dfcae -o www-again.pem",
        )],
    ),
    (
        "pkit issue policy",
        &[
            (
                "Allow names under corp.example, never 10.9.0.0/16",
                "pkit issue policy --ca int --allow DNS:*.corp.example --deny IP:10.9.0.0/16",
            ),
            (
                "Would this name be signed?",
                "pkit issue policy --ca int --check DNS:api.corp.example",
            ),
        ],
    ),
    (
        "pkit crl revoke",
        &[
            (
                "Revoke a certificate whose key leaked",
                "pkit crl revoke --ca int --cert www.pem --reason keyCompromise",
            ),
            ("Revoke by serial", "pkit crl revoke --ca int 6621dd6d1e10"),
        ],
    ),
    (
        "pkit crl gen",
        &[(
            "The CA's next CRL, valid for a week",
            "pkit crl gen --ca int -o int.crl --next-update 7d",
        )],
    ),
    (
        "pkit crl verify",
        &[(
            "Check a CRL against its issuer",
            "pkit crl verify int.crl --issuer int/ca.pem",
        )],
    ),
    (
        "pkit crl check",
        &[(
            "Is this serial listed? (exit 1 when it is)",
            "pkit crl check int.crl 6621dd6d1e10",
        )],
    ),
    (
        "pkit ocsp request",
        &[
            (
                "An OCSP request, written to a file",
                "pkit ocsp request --cert www.pem --issuer int/ca.pem -o req.der",
            ),
            (
                "Ask the responder the certificate names, and check the answer",
                "pkit ocsp request --cert www.pem --issuer int/ca.pem --nonce --url",
            ),
        ],
    ),
    (
        "pkit ocsp respond",
        &[(
            "Answer one request from the CA's records",
            "pkit ocsp respond --ca int --request req.der -o resp.der",
        )],
    ),
    (
        "pkit ocsp serve",
        &[(
            "An OCSP responder over HTTP",
            "pkit ocsp serve --ca int --listen 127.0.0.1:8080",
        )],
    ),
    (
        "pkit ocsp verify",
        &[(
            "Check a response and the certificate's status in it",
            "pkit ocsp verify resp.der --issuer int/ca.pem --cert www.pem",
        )],
    ),
    (
        "pkit verify",
        &[
            (
                "A chain for a host name, as a TLS client",
                "pkit verify --roots root/ca.pem --hostname www.example.com --purpose server www-chain.pem",
            ),
            (
                "With a CRL, as JSON",
                "pkit verify --roots root/ca.pem --crl int.crl -f json www-chain.pem",
            ),
            (
                "A public server, under the Web PKI's rules",
                "pkit verify --connect www.example.com:443 --purpose server --rules webpki",
            ),
        ],
    ),
    (
        "pkit lint",
        &[
            ("Lint a certificate", "pkit lint www.pem"),
            (
                "Under the public TLS BRs",
                "pkit lint --rules rfc5280,cabf-tls www.pem",
            ),
            (
                "A directory, counted by rule",
                "pkit lint -r /etc/ssl/certs -f summary",
            ),
        ],
    ),
    (
        "pkit acme serve",
        &[
            (
                "An ACME server for a CA, validating on the standard ports",
                "pkit acme serve --ca int --listen 0.0.0.0:14000 --base-url https://acme.example.internal:14000",
            ),
            (
                "Merkle Tree Certificates through ACME",
                "pkit acme serve --ca int --mtc mtc --listen 0.0.0.0:14000",
            ),
        ],
    ),
    (
        "pkit ca serve",
        &[
            (
                "Every URL of a two-tier CA (OCSP, CRLs, issuer certificates) from one server",
                "pkit ca serve --ca root --ca int --listen 0.0.0.0:80",
            ),
            (
                "The same, with ACME for the intermediate on port 443",
                "pkit ca serve --ca root --ca int --listen 0.0.0.0:80 --acme --acme-listen 0.0.0.0:443 --base-url https://pki.example.internal",
            ),
        ],
    ),
    (
        "pkit acme orders",
        &[("The server's orders", "pkit acme orders --ca int -f json")],
    ),
    (
        "pkit mtc ca new",
        &[(
            "An MTC CA with its issuance log",
            "pkit mtc ca new --dir mtc --ca-id 32473.1 --alg ed25519",
        )],
    ),
    (
        "pkit mtc add",
        &[(
            "Log entries for a manifest",
            "pkit mtc add --dir mtc --from manifest.jsonl",
        )],
    ),
    (
        "pkit mtc checkpoint",
        &[
            ("Checkpoint the log", "pkit mtc checkpoint --dir mtc"),
            (
                "From cron: the signed note replaced in a file",
                "pkit mtc checkpoint --dir mtc -o checkpoint.txt --force",
            ),
            (
                "Publish only once 2 of 3 witnesses cosigned, then into a bucket",
                "pkit mtc checkpoint --dir mtc --witness https://w1.example=w1.pub \
                 --witness https://w2.example=w2.pub --witness https://w3.example=w3.pub \
                 --witness-quorum 2 --to s3://logs/mtc/1",
            ),
        ],
    ),
    (
        "pkit mtc witness serve",
        &[(
            "A witness for the logs of one MTC CA, its state in witness.db",
            "pkit mtc witness serve --key w.key --id 32473.50 --log mtc-ca.pem --db witness.db \
             --listen 127.0.0.1:7380",
        )],
    ),
    (
        "pkit mtc cert",
        &[(
            "The standalone certificate of entry 0",
            "pkit mtc cert --dir mtc --index 0 -o mtc-0.pem",
        )],
    ),
    (
        "pkit mtc verify",
        &[(
            "Check an MTC certificate against the served log",
            "pkit mtc verify mtc-0.pem --ca mtc/mtc-ca.pem --url http://127.0.0.1:8081/",
        )],
    ),
    (
        "pkit mtc serve",
        &[(
            "Serve the log as tlog-tiles",
            "pkit mtc serve --dir mtc --listen 127.0.0.1:8081",
        )],
    ),
    (
        "pkit mtc tiles",
        &[(
            "Publish the log as static files",
            "pkit mtc tiles --dir mtc --out-dir public",
        ),
        (
            "Publish it into an S3-compatible bucket (credentials from AWS_*)",
            "pkit mtc tiles --dir mtc --to s3://logs/mtc/1 --s3-endpoint http://127.0.0.1:9000",
        )],
    ),
    (
        "pkit mtc audit",
        &[(
            "Audit a served log, remembering what was seen",
            "pkit mtc audit --url http://127.0.0.1:8081/ --ca mtc/mtc-ca.pem --state seen.json",
        ),
        (
            "Only with the witnesses a policy asks for",
            "pkit mtc audit --url https://logs.example/mtc/1 --ca mtc/mtc-ca.pem \
             --witness-policy policy.txt",
        )],
    ),
    (
        "pkit mtc proof",
        &[(
            "The inclusion proof of entry 5 in its signed subtree, as JSON",
            "pkit mtc proof --dir mtc --index 5 -f json",
        )],
    ),
    (
        "pkit mtc consistency",
        &[(
            "That the tree of 2,048 entries extends the one of 1,024",
            "pkit mtc consistency --dir mtc --old 1024 --new 2048",
        )],
    ),
    (
        "pkit mtc cosign",
        &[(
            "A witness cosigning what the log added since it last looked",
            "pkit mtc cosign --url http://127.0.0.1:8081/ --ca mtc/mtc-ca.pem --key w.key --id 32473.51 --state w.json -o w.sig",
        )],
    ),
    (
        "pkit mtc landmark allocate",
        &[(
            "A landmark active for two weeks",
            "pkit mtc landmark --dir mtc allocate --lifetime 2w",
        )],
    ),
    (
        "pkit mtc landmark list",
        &[(
            "The landmarks and their subtrees",
            "pkit mtc landmark --dir mtc list --subtrees",
        )],
    ),
    (
        "pkit mtc size",
        &[(
            "How large an ML-DSA-44 MTC certificate is beside an X.509 chain",
            "pkit mtc size --alg ml-dsa-44",
        )],
    ),
    (
        "pkit acme accounts",
        &[("The server's accounts", "pkit acme accounts --ca int")],
    ),
    (
        "pkit bench crypto",
        &[(
            "Key generation, signing and verification for two algorithms",
            "pkit bench crypto --algos ecdsa-p256,ml-dsa-65 --min-time 0.5s",
        )],
    ),
    (
        "pkit bench verify",
        &[(
            "Chain validation beside the raw verify limit",
            "pkit bench verify --sizes 1024 --min-time 500ms",
        )],
    ),
    (
        "pkit bench mtc",
        &[(
            "The MTC pipeline with an Ed25519 CA",
            "pkit bench mtc --sizes 1024,65536 --ca-key-algo ed25519",
        )],
    ),
    (
        "pkit bench parse",
        &[(
            "Parsing speed on the root store and the generated sets",
            "pkit bench parse --min-time 1s",
        )],
    ),
    (
        "pkit bench x509",
        &[(
            "The X.509 pipeline at three batch sizes",
            "pkit bench x509 --sizes 1,1024,16384 --ca-key-algo ecdsa-p256",
        )],
    ),
    (
        "pkit bench compare",
        &[(
            "Two algorithms through the pipeline",
            "pkit bench compare --algos ecdsa-p256,ml-dsa-44 --sizes 1024",
        )],
    ),
    (
        "pkit completions",
        &[(
            "Bash completion for this shell",
            "pkit completions bash",
        )],
    ),
];

/// The examples of the command at `path` (`pkit issue cert`); for a command with none of
/// its own (`pkit issue`), the first of each of its subcommands'.
pub fn of(path: &str) -> Vec<(&'static str, &'static str)> {
    if let Some((_, own)) = EXAMPLES.iter().find(|(p, _)| *p == path) {
        return own.to_vec();
    }
    let below = format!("{path} ");
    EXAMPLES
        .iter()
        .filter(|(p, _)| p.starts_with(&below))
        .filter_map(|(_, e)| e.first().copied())
        .collect()
}

/// A command line as a shell splits it: words, single and double quotes (no escapes,
/// variables or globbing: examples do not need them).
#[cfg(test)]
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `line` parses as a pkit command line.
    fn parses(line: &str) -> Result<(), String> {
        crate::cmd::command()
            .try_get_matches_from(words(line))
            .map(drop)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn every_example_parses() {
        let mut bad = Vec::new();
        for (path, examples) in EXAMPLES {
            let mut cmd = crate::cmd::command();
            for name in path.split(' ').skip(1) {
                cmd = cmd
                    .find_subcommand(name)
                    .unwrap_or_else(|| panic!("{path}: no such command"))
                    .clone();
            }
            for (_, line) in *examples {
                match crate::cmd::command().try_get_matches_from(words(line)) {
                    Ok(m) => {
                        // The example runs the command whose page shows it.
                        let mut ran = String::from("pkit");
                        let mut m = &m;
                        while let Some((name, sub)) = m.subcommand() {
                            ran = format!("{ran} {name}");
                            m = sub;
                        }
                        // (The top page's run the commands below it.)
                        if ran != *path && !(*path == "pkit" && ran.starts_with("pkit ")) {
                            bad.push(format!("{line}: runs {ran}, shown for {path}"));
                        }
                    }
                    Err(e) => bad.push(format!("{line}: {e}")),
                }
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// The README's `$ pkit …` lines (continued with `\`), cut at a pipe, a redirection
    /// or a comment, parse too.
    #[test]
    fn the_readme_examples_parse() {
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
        let mut lines = readme.lines();
        let (mut checked, mut bad) = (0, Vec::new());
        while let Some(line) = lines.next() {
            let Some(cmd) = line.strip_prefix("$ pkit ") else {
                continue;
            };
            let mut cmd = format!("pkit {cmd}");
            while cmd.ends_with('\\') {
                cmd.pop();
                cmd.push_str(lines.next().unwrap_or(""));
            }
            if cmd.contains('…') {
                continue; // elided on purpose
            }
            let cut = shell_end(&cmd);
            let cmd = cmd[..cut].replace("$(date -I)", "2026-01-01");
            if let Err(e) = parses(&cmd) {
                bad.push(format!("README: {cmd}: {e}"));
            }
            checked += 1;
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
        assert!(checked > 30, "only {checked} README examples found");
    }

    /// Where the command ends: at the first pipe, redirection, comment, `&` or `;`
    /// outside quotes.
    fn shell_end(line: &str) -> usize {
        let mut quote = None;
        for (i, c) in line.char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (None, '\'' | '"') => quote = Some(c),
                (None, '|' | '>' | '#' | '&' | ';') => return i,
                _ => {}
            }
        }
        line.len()
    }

    #[test]
    fn words_split_as_a_shell_does() {
        assert_eq!(shell_end("pkit a 'x;y' | b"), 13);
        assert_eq!(
            words("pkit issue ca --subject 'CN=A, O=B' --x \"y z\" ''"),
            [
                "pkit",
                "issue",
                "ca",
                "--subject",
                "CN=A, O=B",
                "--x",
                "y z",
                ""
            ]
        );
    }
}
