# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_pkit_global_optspecs
    string join \n V/version color= h/help
end

function __fish_pkit_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_pkit_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_pkit_using_subcommand
    set -l cmd (__fish_pkit_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c pkit -n "__fish_pkit_needs_command" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_needs_command" -s V -l version -d 'Print pkit\'s version, the linked OpenSSL version and the algorithms available'
complete -c pkit -n "__fish_pkit_needs_command" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "parse" -d 'Read certificates, CSRs, CRLs, OCSP messages, PKCS#7, PKCS#12, keys or any ASN.1'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "key" -d 'Generate private keys and extract public keys'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "issue" -d 'Issue certificates: CAs, CSRs, leaves, batches; the CA\'s state lives in ca.db'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "crl" -d 'Revocation: revoke in a CA\'s ca.db, generate and verify CRLs, look serials up'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "ocsp" -d 'OCSP: build requests, answer them from a CA\'s ca.db, verify responses, serve HTTP'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "verify" -d 'Is a certificate to be trusted: build and validate its path to a trusted root (RFC 5280), with names, purposes, policies and revocation'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "lint" -d 'Check certificates, CRLs, OCSP responses and CSRs against RFC 5280 and the CA/Browser Forum Baseline Requirements (TLS and S/MIME): each finding with its rule, level, source, field and byte offset'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "acme" -d 'Serve ACME (RFC 8555) for a CA, so that a fleet\'s clients (certbot, lego, Caddy, cert-manager) get and renew certificates by themselves; inspect its accounts and orders'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "ca" -d 'Run a CA\'s public face: one server for every URL its certificates point to (OCSP, CRLs, issuer certificates), with health, metrics and ACME'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "mtc" -d 'Merkle Tree Certificates: run an MTC CA, issue and verify MTC certificates'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "bench" -d 'Measure the pipelines (X.509, OCSP, MTC), parsing and raw crypto on this machine'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "completions" -d 'Print shell completions (bash, zsh, fish)'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "gen-docs" -d 'Write man pages and completions into a directory (used to refresh man/ and completions/)'
complete -c pkit -n "__fish_pkit_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l connect -d 'Read the certificates a TLS server presents instead: connect to HOST[:PORT] (443 by default), offering HOST as the server name' -r
complete -c pkit -n "__fish_pkit_using_subcommand parse" -s f -l format -d 'Output format' -r -f -a "text\t'Readable text (default)'
json\t'One JSON document: {"schema":"pkit/v1","type":"parse","items":[…]}'
jsonl\t'One JSON object per line'
pem\t'Re-encode as PEM (certificates and CRLs inside PKCS#7/PKCS#12 are extracted)'
der\t'Re-encode as DER: one object (several need --split; never to a terminal)'
asn1\t'ASN.1 tree with offsets, lengths, tags and decoded values'
table\t'A table (with --summary)'"
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l inform -d 'Input encoding; detected by default' -r -f -a "auto\t'Detect PEM, DER or base64'
pem\t''
der\t''
base64\t''"
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l type -d 'Treat every input as this type instead of detecting it' -r -f -a "cert\t''
csr\t''
crl\t''
ocsp-request\t''
ocsp-response\t''
pkcs7\t''
pkcs12\t''
spki\t''
pkcs8\t''
checkpoint\t''
asn1\t''"
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l passin -d 'Password for PKCS#12 files and encrypted keys: pass:TEXT, env:VAR, file:PATH, fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l now -d 'Judge validity at this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand parse" -s o -l out -d 'Write output to FILE instead of stdout' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand parse" -s r -l recursive -d 'Read the files in directories, recursively'
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l summary -d 'Print counts and statistics for the whole input instead of each object'
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l show-private -d 'Include private key material in the output (off by default)'
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l lenient -d 'Accept BER (non-minimal lengths, indefinite lengths, bad string characters…) and report each deviation as a warning instead of failing'
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand parse" -l split -d 'With -f der or pem: one file per object, named after -o with its number before the extension (-o certs.der writes certs-1.der, certs-2.der …). DER holds one object per file, so -f der of several objects needs it'
complete -c pkit -n "__fish_pkit_using_subcommand parse" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand key; and not __fish_seen_subcommand_from gen pub p12 help" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand key; and not __fish_seen_subcommand_from gen pub p12 help" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand key; and not __fish_seen_subcommand_from gen pub p12 help" -f -a "gen" -d 'Generate a private key and write it as PKCS#8 (PEM by default, mode 0600)'
complete -c pkit -n "__fish_pkit_using_subcommand key; and not __fish_seen_subcommand_from gen pub p12 help" -f -a "pub" -d 'Write the public key (SubjectPublicKeyInfo) of a private key'
complete -c pkit -n "__fish_pkit_using_subcommand key; and not __fish_seen_subcommand_from gen pub p12 help" -f -a "p12" -d 'Write a key, its certificate and chain as a PKCS#12 file (PBES2 AES-256, HMAC-SHA-256 MAC), for Java keystores, Windows and browsers'
complete -c pkit -n "__fish_pkit_using_subcommand key; and not __fish_seen_subcommand_from gen pub p12 help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -s a -l alg -d 'Key algorithm. Case-insensitive; OpenSSL spellings also work (prime256v1, secp384r1, ED25519, rsa:3072, ML-DSA-65, mldsa87…)' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -s o -l out -d 'Write the key to FILE (created with mode 0600) instead of stdout. A PKCS#11 URI (`pkcs11:token=…;object=LABEL?module-path=…`) generates the key in that token instead (sensitive, never extractable) and prints its public key' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -l pin -d 'PIN of the token for `-o pkcs11:…` (pass:, env:, file:, fd:); default: the URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -l passout -d 'Encrypt the key (PKCS#8 PBES2, AES-256-CBC) with the password from SRC: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -l kdf -d 'Password-based key derivation for --passout' -r -f -a "pbkdf2\t'PBKDF2 with HMAC-SHA256, 100000 iterations (readable by OpenSSL 1.1 and later)'
scrypt\t'scrypt with N=2^14, r=8, p=1 (memory-hard; what `openssl pkcs8 -scrypt` writes)'"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -l mldsa-key-format -d 'How an ML-DSA private key is stored (RFC 9881 §6); seed by default' -r -f -a "seed\t'The 32-byte seed the key expands from (smallest; the default)'
expanded\t'The expanded private key only (for software that cannot expand a seed)'
both\t'Both the seed and the expanded key'"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -l outform -d 'Output encoding' -r -f -a "pem\t'PEM armour (text)'
der\t'Binary DER (never written to a terminal)'"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from gen" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from pub" -l passin -d 'Password of an encrypted key: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from pub" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from pub" -s o -l out -d 'Write the public key to FILE instead of stdout' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from pub" -l outform -d 'Output encoding' -r -f -a "pem\t'PEM armour (text)'
der\t'Binary DER (never written to a terminal)'"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from pub" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from pub" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from pub" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l cert -d 'The certificate (PEM or DER); when the file holds more, the rest are its chain' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l key -d 'Its private key (PKCS#8, encrypted or not, or a traditional RSA/EC key)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l passin -d 'Password source of an encrypted --key' -r
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l chain -d 'Intermediate certificates to include (a PEM bundle; repeatable)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l passout -d 'Password for the PKCS#12 file (pass:, env:, file:, fd:); asked for twice at a terminal when not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l name -d 'The alias keytool and the Windows store show (default: the certificate\'s subject)' -r
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -s o -l out -d 'The PKCS#12 file to write (mode 0600)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l legacy -d 'Protect the file as old readers need (Windows Server 2016 and earlier, Java before 8u301): PBE-SHA1-3DES for the key and certificates and a SHA-1 MAC, instead of AES-256 and SHA-256. Weak: only for those readers'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from p12" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "gen" -d 'Generate a private key and write it as PKCS#8 (PEM by default, mode 0600)'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "pub" -d 'Write the public key (SubjectPublicKeyInfo) of a private key'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "p12" -d 'Write a key, its certificate and chain as a PKCS#12 file (PBES2 AES-256, HMAC-SHA-256 MAC), for Java keystores, Windows and browsers'
complete -c pkit -n "__fish_pkit_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "ca" -d 'Create a CA directory: a root, or an intermediate with --parent'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "csr" -d 'Create a PKCS#10 certificate signing request'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "cert" -d 'Issue one certificate from a CSR or for a fresh key'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "batch" -d 'Issue many certificates in parallel (from a count or a JSONL manifest)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "renew" -d 'Issue a certificate again: same subject, SANs, profile and extensions, a new serial and validity (and key, with --key-out); the records link the two'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "policy" -d 'Show, change or try a CA\'s policy on the names it certifies (ca.json allow/deny)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "list" -d 'List the certificates a CA has issued'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "export" -d 'Print one issued certificate by serial number'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and not __fish_seen_subcommand_from ca csr cert batch renew policy list export help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l dir -d 'The CA directory to create (ca.pem, ca.key, ca.db, ca.json; chain.pem for an intermediate)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l subject -d 'Subject, RFC 4514 (`CN=Example Root,O=Example`) or OpenSSL\'s `/O=Example/CN=…`' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l alg -d 'Key algorithm of a new key (default ecdsa-p256); with --key, the key\'s' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l key -d 'The key instead of a new one: a PKCS#8 file, or a key in a PKCS#11 token (`pkcs11:token=…;object=…?module-path=…`), whose URI the CA\'s key file then holds' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l passin -d 'Password source of the --key file' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l pin -d 'PIN of the token holding the --key (pass:, env:, file:, fd:); default: the URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l days -d 'Validity in days (default: 3650 for a root, 1825 for an intermediate)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l parent -d 'Make an intermediate signed by the CA in this directory (recorded in its ca.db)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l parent-passin -d 'Password source for the parent CA\'s key' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l parent-pin -d 'PIN of the token holding the parent CA\'s key' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l path-len -d 'basicConstraints pathLenConstraint' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l permit -d 'Names the CA and every CA below it may certify (nameConstraints, critical; RFC 5280 §4.2.1.10), repeatable: DNS:example.com, DNS:.internal, IP:10.0.0.0/8, email:example.com, URI:.example.com, DN:O=Example' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l exclude -d 'Names it may never certify (excludedSubtrees), repeatable, as --permit' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l allow -d 'Names the CA may certify, beyond what its certificate\'s constraints say (kept in ca.json `allow`), repeatable: DNS:host.example (that name), DNS:*.corp.example (every name below corp.example), IP:10.0.0.0/8, IP:192.0.2.1, email:user@example, email:@corp.example (any mailbox there), email:@*.corp.example, URI:*.corp.example (the URI\'s host). Once there is an allow rule, every name in a certificate must match one of its type; a type no rule names is refused' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l deny -d 'Names it never certifies (ca.json `deny`), as --allow; a deny rule wins over every allow rule, and a wildcard name is refused when a name it covers is' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l ocsp-url -d 'OCSP responder URL (http://…) put in authorityInfoAccess (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l crl-url -d 'CRL URL (http://…) put in cRLDistributionPoints (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l issuer-url -d 'URL of the issuing CA\'s certificate (http://…, DER) put in authorityInfoAccess caIssuers (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l passout -d 'Encrypt ca.key with a password from SRC (pass:, env:, file:, fd:). Without it (or --no-passout), a passphrase is asked for at a terminal; without a terminal the key is written in clear, with a warning' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l now -d 'Start of validity (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l lint-rules -d 'The rule sets this CA\'s lint gate applies to what it signs (recorded in ca.json): rfc5280 and cabf-tls-core by default (what a private CA keeps of the Baseline Requirements); cabf-tls for a CA meant to be publicly trusted, which then needs --issuer-url, --crl-url and C and O in its subject, and puts the CA/B Forum\'s domain-validated policy in its TLS server certificates; cabf-smime adds the S/MIME BRs for the S/MIME certificates it issues' -r -f -a "rfc5280\t''
cabf-tls-core\t''
cabf-tls\t''
cabf-smime\t''
none\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l crl-shards -d 'Publish the CA\'s revocations in N partitioned CRLs (as large public CAs do): each certificate\'s cRLDistributionPoints names the shard of its serial (serial mod N), served beside each --crl-url with -SHARD before its extension (int.crl → int-3.crl), each with an issuingDistributionPoint naming it; the whole CRL stays at --crl-url for certificates issued before. Fixed for the CA\'s life (ca.json crl_shards)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l lint -d 'Lint what is about to be signed with the CA\'s rule sets (ca.json `lint_rules`): enforce refuses it on an error finding (exit 1, nothing signed or written), warn signs and prints the findings, off does not lint' -r -f -a "enforce\t''
warn\t''
off\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l clip-validity -d 'With --parent: cut a validity that reaches past the parent\'s to end with it, instead of refusing (exit 2)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -l no-passout -d 'Write ca.key in clear (for a key kept safe by other means)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from ca" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -l key -d 'The private key to sign the request with' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -l passin -d 'Password source of the signing key\'s file: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -l subject -d 'Subject (RFC 4514 or /-separated)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -l san -d 'Subject alternative name: DNS:a.example, IP:192.0.2.1, email:x@a.example, URI:…' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -s o -l out -d 'Output file (default stdout)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from csr" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l ca -d 'The issuing CA directory (ca.pem, ca.key, ca.db)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l passin -d 'Password source of the signing key\'s file: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l lint -d 'Lint what is about to be signed with the CA\'s rule sets (ca.json `lint_rules`): enforce refuses it on an error finding (exit 1, nothing signed or written), warn signs and prints the findings, off does not lint' -r -f -a "enforce\t''
warn\t''
off\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l csr -d 'Certify the key and subject in this CSR (its signature is checked first)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l subject -d 'Subject for a fresh key (with --key-out); overrides the CSR\'s subject with --csr' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l key-out -d 'Generate a key and write it here (mode 0600)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l alg -d 'Algorithm of the generated key' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l san -d 'Subject alternative name (repeatable): DNS:, IP:, email:, URI:' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l profile -d 'The certificate\'s profile: its key usages, extended key usages and basic constraints (default: server, or what --template describes)' -r -f -a "server\t''
client\t''
server-client\t''
code-signing\t''
ocsp-signer\t''
ca\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l template -d 'Take the subject, SANs and extensions from this JSON: a certificate as `pkit parse -f json` prints it, or a hand-written subset (docs/json.md, Templates). Its extensions are reproduced byte for byte but the key identifiers; --subject, --san, --profile and the pointer flags override it' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l days -d 'Validity in days from not-before, counted as the CA/Browser Forum counts it (the last second is included). Default by profile: server and server-client 90 (never above the Baseline Requirements\' maximum on the issuance date), client and code-signing 365, ocsp-signer 90, ca 1825' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l not-after -d 'End of validity (RFC 3339)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l not-before -d 'Start of validity (RFC 3339; default now)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l ocsp-url -d 'OCSP responder URL (http://…) put in authorityInfoAccess (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l crl-url -d 'CRL URL (http://…) put in cRLDistributionPoints (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l issuer-url -d 'URL of the issuing CA\'s certificate (http://…, DER) put in authorityInfoAccess caIssuers (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l copy-extensions -d 'Whether to copy the CSR\'s requested extensions' -r -f -a "none\t'Ignore the CSR\'s requested extensions'
copy\t'Copy the CSR\'s requested extensions (the profile\'s own win)'"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l now -d 'Judge the CA\'s validity at this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -s o -l out -d 'Output file (default stdout)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l p12-out -d 'Also write a PKCS#12 file (mode 0600) of the key, the certificate and the CA\'s chain (needs the key: --key-out, or renew\'s --key)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l p12-passout -d 'Password source for --p12-out (pass:, env:, file:, fd:); asked for at a terminal when not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l clip-validity -d 'Cut a validity that reaches past the issuing CA\'s to end with it, instead of refusing (exit 2)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l bundle -d 'Write the certificate followed by the CA\'s chain to -o (intermediates; the root is left out, as TLS servers send it): the file nginx\'s ssl_certificate, Envoy and HAProxy take'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -l p12-legacy -d 'Protect --p12-out as old Windows and Java need: PBE-SHA1-3DES and a SHA-1 MAC instead of AES-256 and SHA-256 (weak: only for those readers; `key p12 --legacy`)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from cert" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l ca -d 'The issuing CA directory (ca.pem, ca.key, ca.db)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l passin -d 'Password source of the signing key\'s file: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l lint -d 'Lint what is about to be signed with the CA\'s rule sets (ca.json `lint_rules`): enforce refuses it on an error finding (exit 1, nothing signed or written), warn signs and prints the findings, off does not lint' -r -f -a "enforce\t''
warn\t''
off\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l count -d 'How many certificates (with --subject-template)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l from -d 'JSONL manifest: one {"subject","sans":["DNS:…",…],"profile","alg","days"} per line' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l subject-template -d 'Subject for --count: the certificate\'s number stands in for each n in braces, as in the default' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l san-template -d 'A SAN for --count (repeatable), the certificate\'s number standing in for each n in braces as in --subject-template; with the default subject, the default is its CN as a dNSName' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l alg -d 'Key algorithm (manifest lines may override)' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l profile -d 'Profile (manifest lines may override)' -r -f -a "server\t''
client\t''
server-client\t''
code-signing\t''
ocsp-signer\t''
ca\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l days -d 'Validity in days (manifest lines may override; default by profile, as `issue cert`)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l out-dir -d 'Directory for N.pem and N.key files (created if missing)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l now -d 'Judge validity from this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l chunk -d 'Certificates per database transaction' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -s f -l format -d 'The report on stdout: jsonl, one line per certificate as it is delivered; json, the same items in one pkit/v1 envelope (type `issued`)' -r -f -a "jsonl\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l clip-validity -d 'Cut validities that reach past the CA\'s to end with it, instead of refusing'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l force -d 'Replace N.pem and N.key files already in --out-dir. Without it a batch that would overwrite one is refused before anything is issued: an earlier batch\'s files may be the only copies of the keys of certificates still valid'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -l measure-limit -d 'Afterwards, time the raw limit on the same threads (one key generation plus one CA signature per certificate, in memory) and print it beside the batch\'s rate'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from batch" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l ca -d 'The issuing CA directory (ca.pem, ca.key, ca.db)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l passin -d 'Password source of the signing key\'s file: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l lint -d 'Lint what is about to be signed with the CA\'s rule sets (ca.json `lint_rules`): enforce refuses it on an error finding (exit 1, nothing signed or written), warn signs and prints the findings, off does not lint' -r -f -a "enforce\t''
warn\t''
off\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l cert -d 'The certificate to renew (issued by this CA: its serial is in the CA\'s records)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l key -d 'Certify this key (the certificate\'s own, or another) instead of making a new one' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l key-passin -d 'Password source of an encrypted --key' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l key-out -d 'Make a new key (mode 0600) and certify it' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l alg -d 'Algorithm of the new key (default: the old key\'s)' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l within -d 'Renew only when the certificate expires within this window (e.g. 30d); otherwise say "nothing due for renewal" and exit 0 having done nothing (for cron and timers)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l exec -d 'After a renewal, run this through `sh -c` with the files and serials in PKIT_* variables (below), e.g. \'systemctl reload nginx\'; its failure is exit 8' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l days -d 'Validity in days from not-before, counted as the CA/Browser Forum counts it (the last second is included). Default by profile: server and server-client 90 (never above the Baseline Requirements\' maximum on the issuance date), client and code-signing 365, ocsp-signer 90, ca 1825' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l not-after -d 'End of validity (RFC 3339)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l not-before -d 'Start of validity (RFC 3339; default now)' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l now -d 'Judge the CA\'s validity (and --within) at this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -s o -l out -d 'Output file (default stdout)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l p12-out -d 'Also write a PKCS#12 file (mode 0600) of the key, the certificate and the CA\'s chain (needs the key: --key-out, or renew\'s --key)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l p12-passout -d 'Password source for --p12-out (pass:, env:, file:, fd:); asked for at a terminal when not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -s q -l quiet -d 'Print nothing when nothing is due (cron then mails only a renewal or a failure)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l clip-validity -d 'Cut a validity that reaches past the issuing CA\'s to end with it, instead of refusing (exit 2)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l bundle -d 'Write the certificate followed by the CA\'s chain to -o (intermediates; the root is left out, as TLS servers send it): the file nginx\'s ssl_certificate, Envoy and HAProxy take'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -l p12-legacy -d 'Protect --p12-out as old Windows and Java need: PBE-SHA1-3DES and a SHA-1 MAC instead of AES-256 and SHA-256 (weak: only for those readers; `key p12 --legacy`)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from renew" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -l ca -d 'The CA directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -l allow -d 'Names the CA may certify, beyond what its certificate\'s constraints say (kept in ca.json `allow`), repeatable: DNS:host.example (that name), DNS:*.corp.example (every name below corp.example), IP:10.0.0.0/8, IP:192.0.2.1, email:user@example, email:@corp.example (any mailbox there), email:@*.corp.example, URI:*.corp.example (the URI\'s host). Once there is an allow rule, every name in a certificate must match one of its type; a type no rule names is refused' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -l deny -d 'Names it never certifies (ca.json `deny`), as --allow; a deny rule wins over every allow rule, and a wildcard name is refused when a name it covers is' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -l remove -d 'Remove this rule (as written) from whichever list holds it, repeatable' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -l check -d 'Whether the CA would certify this name (DNS:, IP:, email:, URI: as --san takes them), repeatable' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -l clear -d 'Remove every rule first'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from policy" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -l ca -d 'The CA directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -s f -l format -d 'text (a table) or json' -r -f -a "text\t''
json\t''
jsonl\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -l expiring -d 'Only certificates that expire within this window from now (e.g. 30d, 4w, 12h): the renewal list' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -l status -d 'Only certificates in this state (expired: past not-after and not revoked)' -r -f -a "valid\t''
revoked\t''
expired\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -l now -d 'Judge expiry at this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -l undelivered -d 'Only the certificates a batch committed but never delivered (killed or failed before writing their files), with what their output directory holds for each: `pkit issue export --undelivered` writes their certificate files, `pkit crl revoke --undelivered` revokes them'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -l ca -d 'The CA directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -s o -l out -d 'Output file (default stdout)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -l out-dir -d 'With --undelivered: write the files here instead of the batch\'s output directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -l undelivered -d 'Write the certificate file `<n>.pem` of every certificate a batch committed but never delivered (see `pkit issue list --undelivered`), into the batch\'s output directory or --out-dir, and print a report line for each. A certificate whose key file is in place is delivered by this; one whose key is gone stays undelivered until revoked (`pkit crl revoke --undelivered`)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "ca" -d 'Create a CA directory: a root, or an intermediate with --parent'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "csr" -d 'Create a PKCS#10 certificate signing request'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "cert" -d 'Issue one certificate from a CSR or for a fresh key'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "batch" -d 'Issue many certificates in parallel (from a count or a JSONL manifest)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "renew" -d 'Issue a certificate again: same subject, SANs, profile and extensions, a new serial and validity (and key, with --key-out); the records link the two'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "policy" -d 'Show, change or try a CA\'s policy on the names it certifies (ca.json allow/deny)'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the certificates a CA has issued'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "export" -d 'Print one issued certificate by serial number'
complete -c pkit -n "__fish_pkit_using_subcommand issue; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and not __fish_seen_subcommand_from revoke gen verify check help" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and not __fish_seen_subcommand_from revoke gen verify check help" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and not __fish_seen_subcommand_from revoke gen verify check help" -f -a "revoke" -d 'Record a revocation in a CA directory\'s ca.db'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and not __fish_seen_subcommand_from revoke gen verify check help" -f -a "gen" -d 'Generate and sign a CRL (v2) over the CA\'s revoked certificates'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and not __fish_seen_subcommand_from revoke gen verify check help" -f -a "verify" -d 'Check a CRL: issuer, key identifier, signature, thisUpdate/nextUpdate'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and not __fish_seen_subcommand_from revoke gen verify check help" -f -a "check" -d 'Look serial numbers up in a CRL (exit 1 when any is listed)'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and not __fish_seen_subcommand_from revoke gen verify check help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -l ca -d 'The CA directory (ca.pem, ca.key, ca.db)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -l cert -d 'Revoke this certificate (issued by the CA) instead of naming its serial' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -l reason -d 'CRLReason (RFC 5280 §5.3.1), in any case; removeFromCRL is for delta CRLs only' -r -f -a "keyCompromise\t''
cACompromise\t''
affiliationChanged\t''
superseded\t''
cessationOfOperation\t''
certificateHold\t''
privilegeWithdrawn\t''
aACompromise\t''
unspecified\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -l at -d 'When the revocation happened (RFC 3339; default now): not before the certificate\'s notBefore, not in the future' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -l undelivered -d 'Revoke every certificate a batch committed but never delivered (see `pkit issue list --undelivered`): nobody received them, and keys whose files were never written are gone'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l ca -d 'The issuing CA directory (ca.pem, ca.key, ca.db)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l passin -d 'Password source of the signing key\'s file: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l lint -d 'Lint what is about to be signed with the CA\'s rule sets (ca.json `lint_rules`): enforce refuses it on an error finding (exit 1, nothing signed or written), warn signs and prints the findings, off does not lint' -r -f -a "enforce\t''
warn\t''
off\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l next-update -d 'nextUpdate = thisUpdate + this (s, m, h, d)' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l now -d 'thisUpdate (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l outform -d 'Output encoding' -r -f -a "pem\t''
der\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -s o -l out -d 'Output file (default stdout)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l drop-expired -d 'Leave out certificates that expired before thisUpdate (RFC 5280 §3.3 allows it)'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from gen" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from verify" -l issuer -d 'The certificate of the CA that should have issued it' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from verify" -l now -d 'Judge freshness at this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from verify" -s f -l format -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from verify" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from check" -s f -l format -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from check" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from help" -f -a "revoke" -d 'Record a revocation in a CA directory\'s ca.db'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from help" -f -a "gen" -d 'Generate and sign a CRL (v2) over the CA\'s revoked certificates'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check a CRL: issuer, key identifier, signature, thisUpdate/nextUpdate'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from help" -f -a "check" -d 'Look serial numbers up in a CRL (exit 1 when any is listed)'
complete -c pkit -n "__fish_pkit_using_subcommand crl; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and not __fish_seen_subcommand_from request respond verify serve help" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and not __fish_seen_subcommand_from request respond verify serve help" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and not __fish_seen_subcommand_from request respond verify serve help" -f -a "request" -d 'Build an OCSP request (RFC 6960) for a certificate; with --url, send it and check the answer'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and not __fish_seen_subcommand_from request respond verify serve help" -f -a "respond" -d 'Answer an OCSP request from a CA directory\'s ca.db'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and not __fish_seen_subcommand_from request respond verify serve help" -f -a "verify" -d 'Check an OCSP response: signer, certificate, nonce, freshness, status'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and not __fish_seen_subcommand_from request respond verify serve help" -f -a "serve" -d 'Run an OCSP responder over HTTP (RFC 6960 Appendix A) for a CA directory'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and not __fish_seen_subcommand_from request respond verify serve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -l cert -d 'The certificate to ask about' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -l issuer -d 'The certificate of the CA that issued it' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -l hash -d 'Hash for the CertID (responders expect sha1)' -r -f -a "sha1\t''
sha256\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -l url -d 'Send the request to the OCSP responder at URL (http://…) and check the response; without a value, to the one the certificate\'s authorityInfoAccess names. -o then saves the response' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -s o -l out -d 'Output file (default stdout)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -l nonce -d 'Add a 32-byte random nonce (RFC 8954)'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from request" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l ca -d 'The CA directory (ca.pem, ca.key, ca.db)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l responder-cert -d 'Sign as a delegated responder with this certificate (issued by the CA with the OCSPSigning EKU, e.g. `pkit issue cert --profile ocsp-signer`)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l responder-key -d 'The delegated responder\'s private key' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l passin -d 'Password source of the signing key\'s file: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l next-update -d 'How long a response stands: nextUpdate = now + this (s, m, h, d). A CA set for public trust (`issue ca --lint-rules …cabf-tls`) needs 8h to 10d (BR §4.9.10)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l lint -d 'Lint what is about to be signed with the CA\'s rule sets (ca.json `lint_rules`): enforce refuses it on an error finding (exit 1, nothing signed or written), warn signs and prints the findings, off does not lint' -r -f -a "enforce\t''
warn\t''
off\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l request -d 'The OCSP request (DER, PEM or base64)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l now -d 'Answer as of this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -s o -l out -d 'Output file (default stdout)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -s f -l format -d 'text: a message on stderr; json: a description of what was made on stdout' -r -f -a "text\t'A message on stderr; data (PEM) on stdout or in -o'
json\t'A pkit/v1 JSON envelope on stdout describing what was made'"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -l force -d 'Overwrite the output file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from respond" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from verify" -l issuer -d 'The certificate of the CA that issued the certificate in question' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from verify" -l cert -d 'The certificate in question (its serial must be answered)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from verify" -l request -d 'The request this response answers (its nonce must come back)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from verify" -l now -d 'Judge freshness at this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from verify" -s f -l format -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from verify" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l ca -d 'The CA directory (ca.pem, ca.key, ca.db)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l responder-cert -d 'Sign as a delegated responder with this certificate (issued by the CA with the OCSPSigning EKU, e.g. `pkit issue cert --profile ocsp-signer`)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l responder-key -d 'The delegated responder\'s private key' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l passin -d 'Password source of the signing key\'s file: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l next-update -d 'How long a response stands: nextUpdate = now + this (s, m, h, d). A CA set for public trust (`issue ca --lint-rules …cabf-tls`) needs 8h to 10d (BR §4.9.10)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l lint -d 'Lint what is about to be signed with the CA\'s rule sets (ca.json `lint_rules`): enforce refuses it on an error finding (exit 1, nothing signed or written), warn signs and prints the findings, off does not lint' -r -f -a "enforce\t''
warn\t''
off\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l listen -d 'Address to listen on, e.g. 127.0.0.1:8080' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l threads -d 'Worker threads, each with its own database connection (and, for `ocsp serve`, its own signer); connections are spread over them (default: one per CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l max-connections -d 'Connections open at once; further clients wait in the kernel\'s accept queue until one closes. This bounds memory: a connection holds at most a 32 KiB read buffer, a 64 KiB request body and the answer it is sending' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l header-timeout -d 'How long a client has to send a whole request header, counted from the connection\'s opening or from the previous answer (and as long again for the body), and how long an answer may wait for a client that does not read it; past it the connection is closed' -r
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from help" -f -a "request" -d 'Build an OCSP request (RFC 6960) for a certificate; with --url, send it and check the answer'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from help" -f -a "respond" -d 'Answer an OCSP request from a CA directory\'s ca.db'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check an OCSP response: signer, certificate, nonce, freshness, status'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Run an OCSP responder over HTTP (RFC 6960 Appendix A) for a CA directory'
complete -c pkit -n "__fish_pkit_using_subcommand ocsp; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l connect -d 'Verify the chain a TLS server sends: connect to HOST[:PORT] (443 by default), offer HOST as the server name, and take the certificates it presents. The name to match defaults to HOST' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l roots -d 'Trusted roots: a file or a directory of PEM/DER certificates (repeatable). A directory is read as `openssl verify -CApath` reads one: its files that hold certificates, by content (other files and subdirectories are skipped; --verbose names them), each certificate once. Default: SSL_CERT_FILE / SSL_CERT_DIR, else the system store' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l untrusted -d 'More candidate intermediates (repeatable)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l now -d 'Verify as of this time (RFC 3339) instead of now' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l max-depth -d 'At most N intermediates between the certificate and the trust anchor; self-issued ones are not counted (RFC 5280 §6.1.4 (l))' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l purpose -d 'The extended key usage the certificate must allow' -r -f -a "any\t''
server\t''
client\t''
code-signing\t''
email\t''
ocsp-signer\t''
timestamping\t''"
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l hostname -d 'The DNS name (or IP address) the certificate must be valid for' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l ip -d 'The IP address the certificate must be valid for' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l email -d 'The email address the certificate must be valid for' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l policy -d 'An acceptable certificate policy OID (repeatable; default: any policy)' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l rules -d 'RFC 5280 alone, or with the CA/Browser Forum rules browsers enforce (see below)' -r -f -a "rfc5280\t''
webpki\t''"
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l crl -d 'A CRL to check revocation against (repeatable; a file may hold several)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l ca -d 'A pkit CA directory whose ca.db answers for the certificates it issued' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l ocsp-response -d 'An OCSP response to check revocation against (repeatable)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l check-revocation -d 'Which certificates to check for revocation. Default: leaf when a CRL, --ca, an OCSP response, --ocsp or --crl-download is given, else none' -r -f -a "none\t''
leaf\t''
chain\t''"
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l revocation-policy -d 'What an unknown revocation status means' -r -f -a "soft-fail\t''
hard-fail\t''"
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l expires-within -d 'Fail when a certificate of the chain expires within this window (e.g. 30d)' -r
complete -c pkit -n "__fish_pkit_using_subcommand verify" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''
jsonl\t''"
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand verify" -s r -l recursive -d 'Read the files in directories given as CERT, recursively. A file in them that holds no certificate (a key, a CRL, a README) is skipped and counted, not an error (--verbose names each); a file named on the command line must hold one'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l require-explicit-policy -d 'Require a valid policy for the whole path (RFC 5280 initial-explicit-policy)'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l inhibit-policy-mapping -d 'Do not follow policy mappings (initial-policy-mapping-inhibit)'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l inhibit-any-policy -d 'Do not let anyPolicy stand for other policies (initial-any-policy-inhibit)'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l ocsp -d 'Ask the OCSP responder each certificate names (authorityInfoAccess, http) about it'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l crl-download -d 'Fetch the CRL each certificate names (cRLDistributionPoints, http; once per run)'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -l offline -d 'Never fetch revocation data. Without it, --check-revocation given with no CRL, OCSP response or --ca asks the OCSP responders and fetches the CRLs the certificates name, as --ocsp --crl-download do'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -s v -l verbose -d 'Name the files of --roots directories (and of -r directories) that hold no certificate, and count the certificates found more than once'
complete -c pkit -n "__fish_pkit_using_subcommand verify" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand lint" -l rules -d 'Rule sets, comma-separated: rfc5280, cabf-tls-core (the Baseline Requirements\' rules a private CA keeps: validity, keys, SANs, key usages), cabf-tls (all of them, for a publicly trusted CA), cabf-smime (the S/MIME BRs, for mailbox certificates), none' -r -f -a "rfc5280\t''
cabf-tls-core\t''
cabf-tls\t''
cabf-smime\t''
none\t''"
complete -c pkit -n "__fish_pkit_using_subcommand lint" -l as -d 'Lint every certificate as this type instead of the one its contents say' -r -f -a "root\t''
intermediate\t''
cross-ca\t''
tls-leaf\t''
smime-leaf\t''
ocsp-signer\t''
leaf\t''"
complete -c pkit -n "__fish_pkit_using_subcommand lint" -l at -d 'Judge by the rules in force on this day (YYYY-MM-DD or RFC 3339) instead of those in force on each certificate\'s notBefore' -r
complete -c pkit -n "__fish_pkit_using_subcommand lint" -l fail-on -d 'Exit 1 when a finding reaches this level' -r -f -a "error\t''
warning\t''
notice\t''"
complete -c pkit -n "__fish_pkit_using_subcommand lint" -s f -l format -d 'Output format' -r -f -a "text\t'Each file\'s findings, one line each'
json\t'One pkit/v1 envelope (type `lint`), an item per object'
jsonl\t'One JSON object per object'
summary\t'A table of how often each lint fired, over all inputs'"
complete -c pkit -n "__fish_pkit_using_subcommand lint" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand lint" -s r -l recursive -d 'Read the files in directories, recursively; each distinct object found is linted once, under the first name it was found by (hash links and bundles repeat them)'
complete -c pkit -n "__fish_pkit_using_subcommand lint" -l list -d 'List the lints (name, object, level, rule set, source, in force since and until) and exit'
complete -c pkit -n "__fish_pkit_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and not __fish_seen_subcommand_from serve accounts orders help" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand acme; and not __fish_seen_subcommand_from serve accounts orders help" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and not __fish_seen_subcommand_from serve accounts orders help" -f -a "serve" -d 'Serve ACME (RFC 8555) for a CA directory: accounts, orders, http-01, dns-01 and tls-alpn-01 challenges validated from the server, certificates through the CA\'s lint gate'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and not __fish_seen_subcommand_from serve accounts orders help" -f -a "accounts" -d 'The ACME accounts of a CA (text or JSON)'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and not __fish_seen_subcommand_from serve accounts orders help" -f -a "orders" -d 'The ACME orders of a CA, optionally of one account (text or JSON)'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and not __fish_seen_subcommand_from serve accounts orders help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l ca -d 'The CA directory that issues (ca.pem, ca.key, its records)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l passin -d 'Password source of the signing key\'s file: pass:TEXT, env:VAR, file:PATH (first line) or fd:N' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l pin -d 'PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l listen -d 'Address to listen on, e.g. 127.0.0.1:8080' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l threads -d 'Worker threads, each with its own database connection (and, for `ocsp serve`, its own signer); connections are spread over them (default: one per CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l max-connections -d 'Connections open at once; further clients wait in the kernel\'s accept queue until one closes. This bounds memory: a connection holds at most a 32 KiB read buffer, a 64 KiB request body and the answer it is sending' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l header-timeout -d 'How long a client has to send a whole request header, counted from the connection\'s opening or from the previous answer (and as long again for the body), and how long an answer may wait for a client that does not read it; past it the connection is closed' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l base-url -d 'The URL clients reach this server at (what the directory\'s URLs start with); by default https://ADDR:PORT of --listen (http:// with --plain-http)' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l tls-cert -d 'The HTTPS certificate chain (PEM, leaf first); without it the server issues itself one from the CA for the host of the base URL, with a fresh P-256 key, and keeps it in DIR/acme-tls.pem and DIR/acme-tls.key for the next start, which uses it again while it names the host and over a third of its validity is left' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l tls-key -d 'The private key of --tls-cert (PEM, PKCS#8 or SEC 1)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l http-port -d 'The port http-01 validation connects to' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l tls-port -d 'The port tls-alpn-01 validation connects to' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l resolver -d 'The DNS server validation asks (ADDR:PORT): dns-01\'s TXT records, http-01\'s addresses and CAA records; default: the system\'s resolver' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l caa-identity -d 'The issuer domain name this CA goes by in CAA records (RFC 8659); without it, CAA is not checked' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l eab-keys -d 'External account binding keys (lines of `KID BASE64URL-KEY`): new accounts must bind to one of them' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l profile -d 'A profile the server offers (repeatable): NAME[=PKIT-PROFILE]:DAYS[:DESCRIPTION]; orders that name it get certificates of pkit\'s profile server (serverAuth, the default) or server-client (serverAuth and clientAuth), or Merkle Tree Certificates (mtc, with --mtc), valid DAYS days' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l mtc -d 'An MTC CA directory (`pkit mtc ca new`): orders without a profile get Merkle Tree Certificates from its log (its mtc.db, or the PostgreSQL database its db.url names)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l mtc-passin -d 'Password source of the MTC CA\'s cosigner.key when `mtc ca new --passout` encrypted it (pass:, env:, file:, fd:); default: --passin\'s' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l mtc-db-passin -d 'Password source for the MTC CA\'s PostgreSQL database (pass:, env:, file:, fd:); default: --db-passin\'s' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l mtc-days -d 'Days an MTC certificate is valid when the order\'s profile does not say' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l mtc-to -d 'After each checkpoint, publish the MTC log into this S3-compatible bucket, as `pkit mtc tiles --to` does (the tiles it adds, the checkpoint last); the credentials are AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l mtc-witness -d 'A witness the MTC checkpointer asks before it records a checkpoint (c2sp.org/tlog-witness): its submission prefix URL and public key or certificate file, or its verifier key (repeatable), as `pkit mtc checkpoint --witness`' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l mtc-witness-quorum -d 'How many --mtc-witness cosignatures a checkpoint needs (default: all). Short of it, the checkpoint is not recorded and the log line says which witnesses failed' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l mtc-witness-timeout -d 'How long each --mtc-witness has to answer' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l s3-endpoint -d 'The S3 endpoint (default: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else AWS\'s for the region). With an endpoint, objects are addressed path-style (ENDPOINT/BUCKET/KEY), as MinIO and most S3-compatible stores want' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l s3-region -d 'The bucket\'s region (default: AWS_REGION or AWS_DEFAULT_REGION, else us-east-1). The credentials are AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, when set, AWS_SESSION_TOKEN' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l s3-jobs -d 'Uploads in flight at once' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l checkpoint-every -d 'How often the MTC log is checkpointed (when entries were added): how long a client waits for its certificate, at most' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l landmark-every -d 'Allocate an MTC landmark this often (default: never; `pkit mtc landmark allocate` by hand)' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l landmark-lifetime -d 'How long each landmark the server allocates stays active' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l orders-per-account -d 'New orders an account may make in a window: N/DURATION (Let\'s Encrypt\'s 300 in 3 hours by default); `none` for no limit. Past it: rateLimited (429, Retry-After)' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l order-lifetime -d 'How long an order has to be completed' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l terms-of-service -d 'The terms of service URL the directory names' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l validators -d 'Validator threads (each validates one challenge at a time)' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -l plain-http -d 'Speak plain HTTP, for a server behind a proxy that terminates TLS (ACME clients talk HTTPS only, RFC 8555 §6.1)'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from accounts" -l ca -d 'The CA directory (its DIR/acme.db, or its records\' PostgreSQL database)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from accounts" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from accounts" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from accounts" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from accounts" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from accounts" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from orders" -l ca -d 'The CA directory (its DIR/acme.db, or its records\' PostgreSQL database)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from orders" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from orders" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from orders" -l account -d 'Only this account\'s orders' -r
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from orders" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from orders" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from orders" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Serve ACME (RFC 8555) for a CA directory: accounts, orders, http-01, dns-01 and tls-alpn-01 challenges validated from the server, certificates through the CA\'s lint gate'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from help" -f -a "accounts" -d 'The ACME accounts of a CA (text or JSON)'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from help" -f -a "orders" -d 'The ACME orders of a CA, optionally of one account (text or JSON)'
complete -c pkit -n "__fish_pkit_using_subcommand acme; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and not __fish_seen_subcommand_from serve help" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ca; and not __fish_seen_subcommand_from serve help" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and not __fish_seen_subcommand_from serve help" -f -a "serve" -d 'Serve every URL the CAs write into certificates — OCSP, CRLs kept current, issuer certificates — with /health and /metrics, and ACME with --acme, from one process'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and not __fish_seen_subcommand_from serve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l ca -d 'A CA directory whose URLs are served (repeatable: a root and its intermediates)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l db-passin -d 'Password source for the CAs\' PostgreSQL databases (each CA\'s records are those its directory names: DIR/ca.db, or the server in DIR/db.url)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l passin -d 'Password source of the CAs\' key files (pass:TEXT, env:VAR, file:PATH, fd:N): once for every --ca, or once per --ca in their order (a root and an intermediate with passwords of their own)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l pin -d 'PIN source of the PKCS#11 tokens that hold the CAs\' keys: once for every --ca, or once per --ca in their order; default: each key URI\'s pin-value or pin-source' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l listen -d 'Address to listen on, e.g. 127.0.0.1:8080' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l threads -d 'Worker threads, each with its own database connection (and, for `ocsp serve`, its own signer); connections are spread over them (default: one per CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l max-connections -d 'Connections open at once; further clients wait in the kernel\'s accept queue until one closes. This bounds memory: a connection holds at most a 32 KiB read buffer, a 64 KiB request body and the answer it is sending' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l header-timeout -d 'How long a client has to send a whole request header, counted from the connection\'s opening or from the previous answer (and as long again for the body), and how long an answer may wait for a client that does not read it; past it the connection is closed' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l ocsp-next-update -d 'How long an OCSP response stands: nextUpdate = now + this (default 1h, or 8h for a CA whose lint rules hold the CA/B Forum TLS BRs, which ask at least 8 hours, §4.9.10)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l crl-next-update -d 'How long a CRL stands: nextUpdate = thisUpdate + this. A new one is made once half of it has passed' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l crl-max-age -d 'A revocation recorded in a CA\'s records is in its served CRL within this: the records are asked every 50 ms whether one was (one row read), and the CRLs it changes are signed again with it merged in (0.1–0.35 s at a million entries on 2 cores; each `crl` log line\'s within_max_age says whether its CRL was made within this bound). Whole seconds, 1s at least' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l acme-listen -d 'Where the ACME server listens (HTTPS unless --plain-http)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l acme-ca -d 'The CA that issues through ACME (one of the --ca; default: the last)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l base-url -d 'The URL clients reach this server at (what the directory\'s URLs start with); by default https://ADDR:PORT of --listen (http:// with --plain-http)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l tls-cert -d 'The HTTPS certificate chain (PEM, leaf first); without it the server issues itself one from the CA for the host of the base URL, with a fresh P-256 key, and keeps it in DIR/acme-tls.pem and DIR/acme-tls.key for the next start, which uses it again while it names the host and over a third of its validity is left' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l tls-key -d 'The private key of --tls-cert (PEM, PKCS#8 or SEC 1)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l http-port -d 'The port http-01 validation connects to' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l tls-port -d 'The port tls-alpn-01 validation connects to' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l resolver -d 'The DNS server validation asks (ADDR:PORT): dns-01\'s TXT records, http-01\'s addresses and CAA records; default: the system\'s resolver' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l caa-identity -d 'The issuer domain name this CA goes by in CAA records (RFC 8659); without it, CAA is not checked' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l eab-keys -d 'External account binding keys (lines of `KID BASE64URL-KEY`): new accounts must bind to one of them' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l profile -d 'A profile the server offers (repeatable): NAME[=PKIT-PROFILE]:DAYS[:DESCRIPTION]; orders that name it get certificates of pkit\'s profile server (serverAuth, the default) or server-client (serverAuth and clientAuth), or Merkle Tree Certificates (mtc, with --mtc), valid DAYS days' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l mtc -d 'An MTC CA directory (`pkit mtc ca new`): orders without a profile get Merkle Tree Certificates from its log (its mtc.db, or the PostgreSQL database its db.url names)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l mtc-passin -d 'Password source of the MTC CA\'s cosigner.key when `mtc ca new --passout` encrypted it (pass:, env:, file:, fd:); default: --passin\'s' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l mtc-db-passin -d 'Password source for the MTC CA\'s PostgreSQL database (pass:, env:, file:, fd:); default: --db-passin\'s' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l mtc-days -d 'Days an MTC certificate is valid when the order\'s profile does not say' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l mtc-to -d 'After each checkpoint, publish the MTC log into this S3-compatible bucket, as `pkit mtc tiles --to` does (the tiles it adds, the checkpoint last); the credentials are AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l mtc-witness -d 'A witness the MTC checkpointer asks before it records a checkpoint (c2sp.org/tlog-witness): its submission prefix URL and public key or certificate file, or its verifier key (repeatable), as `pkit mtc checkpoint --witness`' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l mtc-witness-quorum -d 'How many --mtc-witness cosignatures a checkpoint needs (default: all). Short of it, the checkpoint is not recorded and the log line says which witnesses failed' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l mtc-witness-timeout -d 'How long each --mtc-witness has to answer' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l s3-endpoint -d 'The S3 endpoint (default: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else AWS\'s for the region). With an endpoint, objects are addressed path-style (ENDPOINT/BUCKET/KEY), as MinIO and most S3-compatible stores want' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l s3-region -d 'The bucket\'s region (default: AWS_REGION or AWS_DEFAULT_REGION, else us-east-1). The credentials are AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, when set, AWS_SESSION_TOKEN' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l s3-jobs -d 'Uploads in flight at once' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l checkpoint-every -d 'How often the MTC log is checkpointed (when entries were added): how long a client waits for its certificate, at most' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l landmark-every -d 'Allocate an MTC landmark this often (default: never; `pkit mtc landmark allocate` by hand)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l landmark-lifetime -d 'How long each landmark the server allocates stays active' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l orders-per-account -d 'New orders an account may make in a window: N/DURATION (Let\'s Encrypt\'s 300 in 3 hours by default); `none` for no limit. Past it: rateLimited (429, Retry-After)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l order-lifetime -d 'How long an order has to be completed' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l terms-of-service -d 'The terms of service URL the directory names' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l validators -d 'Validator threads (each validates one challenge at a time)' -r
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l keep-expired -d 'Keep certificates that expired in the CRLs (by default they are left out once expired, as RFC 5280 §3.3 allows)'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l acme -d 'Serve ACME too, on --acme-listen'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -l plain-http -d 'Speak plain HTTP, for a server behind a proxy that terminates TLS (ACME clients talk HTTPS only, RFC 8555 §6.1)'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Serve every URL the CAs write into certificates — OCSP, CRLs kept current, issuer certificates — with /health and /metrics, and ACME with --acme, from one process'
complete -c pkit -n "__fish_pkit_using_subcommand ca; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "ca" -d 'Create an MTC CA'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "add" -d 'Append certificate requests to the issuance log'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "checkpoint" -d 'Sign a checkpoint and the covering subtrees of the entries added since the last'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "cert" -d 'Write a standalone (default) or landmark-relative certificate for a log entry, and record it in mtc.db'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "landmark" -d 'Allocate and list landmarks'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "proof" -d 'Print the inclusion proof of an entry'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "consistency" -d 'Print the consistency proof between two tree sizes'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "verify" -d 'Verify an MTC certificate (draft §7.2): exit 0 valid, 1 invalid, 3 unparseable'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "size" -d 'Compare certificate sizes: standalone, landmark-relative, X.509 leaf + intermediate'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "tiles" -d 'Write the log as static tlog-tiles files (checkpoint, landmarks, tiles, entry bundles), incrementally'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "serve" -d 'Serve the log over HTTP as tlog-tiles (checkpoint, landmarks, tiles, entry bundles)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "audit" -d 'Audit a served log: signatures, the root from the tiles, consistency with the tree seen before (exit 1 on a fork or a bad tile)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "cosign" -d 'Witness a served log: check its checkpoint and that it extends the one cosigned last, then print a cosignature line (tlog-cosignature)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "witness" -d 'Run a witness over HTTP (c2sp.org/tlog-witness) for logs to submit their checkpoints to'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and not __fish_seen_subcommand_from ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from ca" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from ca" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from ca" -f -a "new" -d 'Create DIR/mtc-ca.pem, DIR/cosigner.key and DIR/mtc.db (with --db, DIR/db.url and the log in that database)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from ca" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l dir -d 'The CA directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l csr -d 'A PKCS#10 request: its subject, key and requested extensions' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l subject -d 'Subject DN, e.g. "CN=a.example,O=Example"' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l san -d 'Subject alternative name: DNS:, IP:, email:, URI: (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l key-out -d 'Generate a fresh key and write it here (0600)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l alg -d 'Algorithm of the fresh key' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l days -d 'Validity in days' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l from -d 'JSONL manifest, one {"subject","sans":[…],"days","alg"|"spki"} per line ("spki": base64 DER; without it a fresh key of "alg" is made and not kept)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l now -d 'notBefore (RFC 3339), default now' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -l force -d 'Overwrite --key-out'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l dir -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l now -d 'Signing time (RFC 3339), default now' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l passin -d 'Password source of DIR/cosigner.key when `mtc ca new --passout` encrypted it (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l pin -d 'PIN of the PKCS#11 token holding the cosigner key (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l cosignature -d 'Instead of signing a new checkpoint, add these witnesses\' cosignature lines (`pkit mtc cosign` output) to the latest one, each checked with its --cosigner key' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l subtree-cosignature -d 'Instead of signing a new checkpoint, take these witnesses\' subtree cosignatures (`pkit mtc cosign --subtrees` output) for subtrees the CA has signed, each checked with its --cosigner key: standalone certificates then carry them' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l cosigner -d 'A witness whose cosignatures are taken: its trust anchor ID and a public key or certificate file (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l witness -d 'A witness to ask over HTTP (c2sp.org/tlog-witness) before the checkpoint is published: its submission prefix URL and its public key or certificate file (a pkit witness), or its verifier key NAME+KEYID+BASE64 (any Ed25519 witness, e.g. litewitness) (repeatable). They are asked in parallel; a cosignature is kept when it verifies with that key. A pkit witness with an ML-DSA-44 key is then asked to cosign the checkpoint\'s covering subtrees too (sign-subtree): its cosignatures go into the standalone certificates beside the CA\'s' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l witness-quorum -d 'How many --witness cosignatures the checkpoint needs to be published (default: all). Short of it, nothing new is published: each witness that failed is named with why, and the exit code is 1' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l witness-timeout -d 'How long each witness has to answer (connection included)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l to -d 'Once the checkpoint is recorded, publish the log into this S3-compatible bucket as `pkit mtc tiles --to` does (what it adds, the checkpoint last)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l s3-endpoint -d 'The S3 endpoint (default: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else AWS\'s for the region). With an endpoint, objects are addressed path-style (ENDPOINT/BUCKET/KEY), as MinIO and most S3-compatible stores want' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l s3-region -d 'The bucket\'s region (default: AWS_REGION or AWS_DEFAULT_REGION, else us-east-1). The credentials are AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, when set, AWS_SESSION_TOKEN' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l s3-jobs -d 'Uploads in flight at once' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -s o -l out -d 'Write the signed note to FILE instead of stdout (with -f json, the description stays on stdout and names the file). Nothing is written when there was nothing new to sign' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -l force -d 'Overwrite the -o file if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from checkpoint" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l dir -d 'The MTC CA directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l index -d 'The log index of the entry' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l count -d 'Write the certificates of `COUNT` consecutive entries from --index, as one PEM bundle' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -s o -l out -d 'Output file (PEM); stdout when absent' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l now -d 'Time that decides which landmarks are active (RFC 3339), default now' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l landmark -d 'A landmark-relative certificate (no signatures) instead of a standalone one'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l stored -d 'Write the certificates an earlier `pkit mtc cert` recorded in mtc.db instead of issuing them from the log again'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -l force
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cert" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from landmark" -l dir -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from landmark" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from landmark" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from landmark" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from landmark" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from landmark" -f -a "allocate" -d 'Make the latest checkpoint\'s tree size the next landmark'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from landmark" -f -a "list" -d 'Print the landmark list (-07 text format), or the trusted subtrees with --subtrees (the file `pkit mtc verify --trusted-subtrees` reads)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from landmark" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from proof" -l dir -d 'The MTC CA directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from proof" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from proof" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from proof" -l index -d 'The log index of the entry' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from proof" -l subtree -d 'The subtree START:END (default: the signed subtree holding the index, else the whole tree)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from proof" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from proof" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from proof" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from consistency" -l dir -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from consistency" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from consistency" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from consistency" -l old -d 'The older tree size' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from consistency" -l new -d 'The newer tree size' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from consistency" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from consistency" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from consistency" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -l ca -d 'The MTC CA certificate (mtc-ca.pem)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -l cosigner -d 'An extra trusted cosigner: its trust anchor ID and a public key or certificate file (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -l trusted-subtrees -d 'Trusted (landmark) subtrees, one "LOG START END HEXHASH" per line, as `pkit mtc landmark list --subtrees` prints them' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -l url -d 'The log\'s prefix URL (tlog-tiles): each certificate\'s subtree is looked up in the log\'s checkpoint (signed by the CA), its hash computed from the tiles and proven consistent with the checkpoint\'s root, and trusted as a landmark is — for a landmark-relative certificate, only when the log\'s landmark list has an active landmark for that subtree. Certificates of subtrees the checkpoint does not hold yet rely on their cosignatures' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -l witness-policy -d 'A witness policy (c2sp.org/tlog-policy: `witness NAME VKEY`, `group NAME K NAME…`, `quorum NAME`): a cosigned certificate is valid only when the witnesses whose cosignatures in it verify meet the quorum, and with --url the log\'s checkpoint the landmarks come from must carry such a quorum too' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -l now -d 'Verification time (RFC 3339), default now' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from size" -l alg -d 'Key and cosigner algorithm' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from size" -l proof-hashes -d 'Inclusion proof length in hashes (a batch subtree of 2^N entries; at most 47, the longest a log of 2^48 entries has)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from size" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from size" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from size" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l dir -d 'The MTC CA directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l out-dir -d 'Where to write the log\'s files (created if needed): `checkpoint`, `landmarks` and `tile/…`, to be served at the log\'s prefix URL' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l to -d 'Write the same objects into an S3-compatible bucket instead, under PREFIX: tiles and entry bundles as immutable, then the landmark list, the checkpoint last (its Cache-Control: max-age=2)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l s3-endpoint -d 'The S3 endpoint (default: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else AWS\'s for the region). With an endpoint, objects are addressed path-style (ENDPOINT/BUCKET/KEY), as MinIO and most S3-compatible stores want' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l s3-region -d 'The bucket\'s region (default: AWS_REGION or AWS_DEFAULT_REGION, else us-east-1). The credentials are AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, when set, AWS_SESSION_TOKEN' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l s3-jobs -d 'Uploads in flight at once' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -l no-entries -d 'Leave out the entry bundles (`tile/entries/…`): hash tiles, checkpoint and landmarks only'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from tiles" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l dir -d 'The MTC CA directory' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l db -d 'The CA\'s records in a PostgreSQL database instead of DIR/ca.db (an MTC CA\'s DIR/mtc.db): postgres://USER@HOST[:PORT]/DB[?sslmode=…&sslrootcert=FILE]; sslmode=verify-full (or verify-ca) authenticates the server with the CA certificates in FILE (default ~/.postgresql/root.crt; `system`: the system\'s). `issue ca --db` records it (without a password) in DIR/db.url (so does `mtc ca new --db`), which later commands use when --db is not given' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l db-passin -d 'Password source for the --db server (pass:, env:, file:, fd:); default: the URL\'s own, else none' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l prefix -d 'The log\'s path on the server (mtc-tlog: the CA prefix URL\'s path and the log number, e.g. /mtc/1). Default: the root' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l listen -d 'Address to listen on, e.g. 127.0.0.1:8080' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l threads -d 'Worker threads, each with its own database connection (and, for `ocsp serve`, its own signer); connections are spread over them (default: one per CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l max-connections -d 'Connections open at once; further clients wait in the kernel\'s accept queue until one closes. This bounds memory: a connection holds at most a 32 KiB read buffer, a 64 KiB request body and the answer it is sending' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l header-timeout -d 'How long a client has to send a whole request header, counted from the connection\'s opening or from the previous answer (and as long again for the body), and how long an answer may wait for a client that does not read it; past it the connection is closed' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -l url -d 'The log\'s prefix URL (e.g. http://127.0.0.1:8080 or https://ca.example/mtc/1)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -l ca -d 'The MTC CA certificate (mtc-ca.pem): whose log it is, and the key its checkpoints must be signed with' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -l cosigner -d 'Another cosigner whose signatures on the checkpoint are checked when present: its trust anchor ID and a public key or certificate file (repeatable)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -l witness-policy -d 'A witness policy (c2sp.org/tlog-policy): the checkpoint must carry cosignatures that meet its quorum, by the keys it lists (exit 1 otherwise, the state kept)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -l state -d 'The tree verified last time (created if missing, updated after a clean audit): only tiles past it are fetched, and the log must extend it' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -l entries -d 'Fetch the entry bundles too and check that each entry hashes to its leaf'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from audit" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l url -d 'The log\'s prefix URL' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l ca -d 'The MTC CA certificate (mtc-ca.pem) whose log this is' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l key -d 'The witness\'s private key: Ed25519 (cosignature/v1, what checkpoint witnesses use) or ML-DSA-44 (subtree/v1, for cosignatures that go into certificates), a PKCS#8 file or a pkcs11: URI' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l passin -d 'Password source of the --key file (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l pin -d 'PIN of the token holding the --key' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l id -d 'The witness\'s trust anchor ID (its signature lines are named oid/1.3.6.1.4.1.ID)' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l state -d 'The tree this witness cosigned last (created if missing; updated after cosigning): the log must extend it' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -s o -l out -d 'Write the signature line here instead of stdout' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l subtrees -d 'Also sign the covering subtrees of what the log added since the state\'s tree (the subtrees the CA signs for its new certificates; ML-DSA-44 keys only), one JSON line each, for `pkit mtc checkpoint --subtree-cosignature`: standalone certificates then carry this witness\'s cosignature' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l now -d 'Signing time (RFC 3339), default now' -r
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -s f -l format -d 'Output format' -r -f -a "text\t''
json\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -l force -d 'Replace --out if it exists'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from cosign" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from witness" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from witness" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from witness" -f -a "serve" -d 'Run a witness over HTTP (c2sp.org/tlog-witness): cosign each checkpoint a known log submits to PREFIX/add-checkpoint once it extends the one cosigned before, and (with an ML-DSA-44 key) the subtrees of those checkpoints at PREFIX/sign-subtree'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from witness" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "ca" -d 'Create an MTC CA'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "add" -d 'Append certificate requests to the issuance log'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "checkpoint" -d 'Sign a checkpoint and the covering subtrees of the entries added since the last'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "cert" -d 'Write a standalone (default) or landmark-relative certificate for a log entry, and record it in mtc.db'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "landmark" -d 'Allocate and list landmarks'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "proof" -d 'Print the inclusion proof of an entry'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "consistency" -d 'Print the consistency proof between two tree sizes'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Verify an MTC certificate (draft §7.2): exit 0 valid, 1 invalid, 3 unparseable'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "size" -d 'Compare certificate sizes: standalone, landmark-relative, X.509 leaf + intermediate'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "tiles" -d 'Write the log as static tlog-tiles files (checkpoint, landmarks, tiles, entry bundles), incrementally'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Serve the log over HTTP as tlog-tiles (checkpoint, landmarks, tiles, entry bundles)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "audit" -d 'Audit a served log: signatures, the root from the tiles, consistency with the tree seen before (exit 1 on a fork or a bad tile)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "cosign" -d 'Witness a served log: check its checkpoint and that it extends the one cosigned last, then print a cosignature line (tlog-cosignature)'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "witness" -d 'Run a witness over HTTP (c2sp.org/tlog-witness) for logs to submit their checkpoints to'
complete -c pkit -n "__fish_pkit_using_subcommand mtc; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -f -a "crypto" -d 'Key generation, signing and verification per algorithm, and SHA-256, on one thread and on all: the raw limits the pipelines are judged against'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -f -a "parse" -d 'Certificate parsing (parse-only and parse+fields), one thread and all threads'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -f -a "x509" -d 'The X.509 pipeline: CA, issuance, store and OCSP, stage by stage'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -f -a "verify" -d 'Chain validation as `pkit verify` does it (leaf, intermediate, root) beside the raw signature-verify limit, and indexing a trust store'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -f -a "mtc" -d 'The Merkle Tree Certificate pipeline: entries, tree, proofs, checkpoint, standalone certificates, stage by stage'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -f -a "compare" -d 'Two algorithms through the X.509 pipeline, one sweep table per operation'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and not __fish_seen_subcommand_from crypto parse x509 verify mtc compare help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -l algos -d 'Algorithms, comma-separated (default: all but RSA-3072/4096, whose key generation takes seconds)' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -l batch-sizes -d 'Batch sizes of the Ed25519 batch verification table (run when Ed25519 is among the algorithms)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -l min-time -d 'Measure each cell for at least this long after a warm-up run (e.g. 1s, 0.2s, 50ms)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -l threads -d 'Worker threads for the parallel stages (default: every logical CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -s f -l format -d 'Output format' -r -f -a "markdown\t'Markdown tables in the layout of the published benchmark documents'
table\t'A table for the terminal'
json\t'{"schema":"pkit/v1","type":"bench","items":[…]}, every cell with mean, min, max and repetitions'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -l backend -d 'The crypto backend under measurement: OpenSSL, or a PKCS#11 module on a throwaway token (the CA\'s key, signatures and verification go through it)' -r -f -a "openssl\t'OpenSSL, linked in (the default)'
nss\t'NSS\'s softoken through PKCS#11 (a throwaway database unless --nss-db names one)'
softhsm\t'SoftHSM2 through PKCS#11 (a throwaway token)'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -l nss-db -d 'With --backend nss: this NSS database instead of a throwaway one' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -l pin -d 'With --nss-db: the database\'s password (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from crypto" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l datasets -d 'Datasets to measure besides FILEs: roots (the system root store), ccadb (a generated CCADB-shaped hierarchy), mldsa (the same with ML-DSA keys)' -r -f -a "roots\t''
ccadb\t''
mldsa\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l dataset-size -d 'Certificates in each generated set (the seed\'s CCADB extract has 9,898)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l cache-dir -d 'Where generated sets are cached (default: $XDG_CACHE_HOME/pkit/bench, else ~/.cache/pkit/bench)' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l min-time -d 'Measure each cell for at least this long after a warm-up run (e.g. 1s, 0.2s, 50ms)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l threads -d 'Worker threads for the parallel stages (default: every logical CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -s f -l format -d 'Output format' -r -f -a "markdown\t'Markdown tables in the layout of the published benchmark documents'
table\t'A table for the terminal'
json\t'{"schema":"pkit/v1","type":"bench","items":[…]}, every cell with mean, min, max and repetitions'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l backend -d 'The crypto backend under measurement: OpenSSL, or a PKCS#11 module on a throwaway token (the CA\'s key, signatures and verification go through it)' -r -f -a "openssl\t'OpenSSL, linked in (the default)'
nss\t'NSS\'s softoken through PKCS#11 (a throwaway database unless --nss-db names one)'
softhsm\t'SoftHSM2 through PKCS#11 (a throwaway token)'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l nss-db -d 'With --backend nss: this NSS database instead of a throwaway one' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l pin -d 'With --nss-db: the database\'s password (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from parse" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l ca-key-algo -d 'CA and subscriber key algorithm' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l db -d 'A FILE: keep the stages\' SQLite databases there (x509: the CA database, made again for each batch size, so that it ends holding the largest batch; mtc: the logs, beside it); default: a temporary directory. A postgres://USER@HOST/DB URL: run every db_ stage on that server too, in schemas of the bench\'s own (pkit_bench_*, dropped at the end), with SQLite\'s figures (db_…_sqlite) beside' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l db-passin -d 'Password source for a --db server (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l sizes -d 'Batch sizes, comma-separated' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l columns -d 'Batch sizes shown as columns of the operation table (default: every size)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l min-time -d 'Measure each cell for at least this long after a warm-up run (e.g. 1s, 0.2s, 50ms)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l threads -d 'Worker threads for the parallel stages (default: every logical CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -s f -l format -d 'Output format' -r -f -a "markdown\t'Markdown tables in the layout of the published benchmark documents'
table\t'A table for the terminal'
json\t'{"schema":"pkit/v1","type":"bench","items":[…]}, every cell with mean, min, max and repetitions'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l backend -d 'The crypto backend under measurement: OpenSSL, or a PKCS#11 module on a throwaway token (the CA\'s key, signatures and verification go through it)' -r -f -a "openssl\t'OpenSSL, linked in (the default)'
nss\t'NSS\'s softoken through PKCS#11 (a throwaway database unless --nss-db names one)'
softhsm\t'SoftHSM2 through PKCS#11 (a throwaway token)'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l nss-db -d 'With --backend nss: this NSS database instead of a throwaway one' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l pin -d 'With --nss-db: the database\'s password (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -l force -d 'Replace an existing --db file'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from x509" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l ca-key-algo -d 'Key algorithm of the root, the intermediate and the leaves' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l roots -d 'The trust store that root_index_build indexes' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l sizes -d 'Batch sizes, comma-separated' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l columns -d 'Batch sizes shown as columns of the operation table (default: every size)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l min-time -d 'Measure each cell for at least this long after a warm-up run (e.g. 1s, 0.2s, 50ms)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l threads -d 'Worker threads for the parallel stages (default: every logical CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -s f -l format -d 'Output format' -r -f -a "markdown\t'Markdown tables in the layout of the published benchmark documents'
table\t'A table for the terminal'
json\t'{"schema":"pkit/v1","type":"bench","items":[…]}, every cell with mean, min, max and repetitions'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l backend -d 'The crypto backend under measurement: OpenSSL, or a PKCS#11 module on a throwaway token (the CA\'s key, signatures and verification go through it)' -r -f -a "openssl\t'OpenSSL, linked in (the default)'
nss\t'NSS\'s softoken through PKCS#11 (a throwaway database unless --nss-db names one)'
softhsm\t'SoftHSM2 through PKCS#11 (a throwaway token)'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l nss-db -d 'With --backend nss: this NSS database instead of a throwaway one' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l pin -d 'With --nss-db: the database\'s password (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l ca-key-algo -d 'CA (issuer and cosigner) and subscriber key algorithm' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l db -d 'A FILE: keep the stages\' SQLite databases there (x509: the CA database, made again for each batch size, so that it ends holding the largest batch; mtc: the logs, beside it); default: a temporary directory. A postgres://USER@HOST/DB URL: run every db_ stage on that server too, in schemas of the bench\'s own (pkit_bench_*, dropped at the end), with SQLite\'s figures (db_…_sqlite) beside' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l db-passin -d 'Password source for a --db server (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l sizes -d 'Batch sizes, comma-separated' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l columns -d 'Batch sizes shown as columns of the operation table (default: every size)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l min-time -d 'Measure each cell for at least this long after a warm-up run (e.g. 1s, 0.2s, 50ms)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l threads -d 'Worker threads for the parallel stages (default: every logical CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -s f -l format -d 'Output format' -r -f -a "markdown\t'Markdown tables in the layout of the published benchmark documents'
table\t'A table for the terminal'
json\t'{"schema":"pkit/v1","type":"bench","items":[…]}, every cell with mean, min, max and repetitions'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l backend -d 'The crypto backend under measurement: OpenSSL, or a PKCS#11 module on a throwaway token (the CA\'s key, signatures and verification go through it)' -r -f -a "openssl\t'OpenSSL, linked in (the default)'
nss\t'NSS\'s softoken through PKCS#11 (a throwaway database unless --nss-db names one)'
softhsm\t'SoftHSM2 through PKCS#11 (a throwaway token)'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l nss-db -d 'With --backend nss: this NSS database instead of a throwaway one' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l pin -d 'With --nss-db: the database\'s password (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from mtc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l algos -d 'The two algorithms: A (the baseline) and B. With --backends: one or more algorithms, each run on both backends' -r -f -a "ecdsa-p256\t''
ecdsa-p384\t''
ed25519\t''
rsa2048\t''
rsa3072\t''
rsa4096\t''
ml-dsa-44\t''
ml-dsa-65\t''
ml-dsa-87\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l backends -d 'Compare two backends instead of two algorithms (e.g. openssl,nss): the seeds\' "Backend Comparison" table at the largest of --sizes, and each token backend\'s stages against its raw C_Sign / C_Verify rates' -r -f -a "openssl\t'OpenSSL, linked in (the default)'
nss\t'NSS\'s softoken through PKCS#11 (a throwaway database unless --nss-db names one)'
softhsm\t'SoftHSM2 through PKCS#11 (a throwaway token)'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l ops -d 'Operations to compare (default: cert_gen, cert_verify, ocsp_sign, ocsp_verify, db_insert_certs, db_read_certs)' -r -f -a "ca_self_sign\t''
cert_gen\t''
db_insert_certs\t''
cert_verify\t''
db_read_certs\t''
crl_build\t''
crl_sign\t''
db_insert_crl\t''
crl_verify\t''
db_read_crl\t''
ocsp_build\t''
ocsp_sign\t''
db_insert_ocsp\t''
ocsp_verify\t''
db_read_ocsp\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l sizes -d 'Batch sizes, comma-separated' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l columns -d 'Batch sizes shown as columns of the operation table (default: every size)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l min-time -d 'Measure each cell for at least this long after a warm-up run (e.g. 1s, 0.2s, 50ms)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l threads -d 'Worker threads for the parallel stages (default: every logical CPU)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -s f -l format -d 'Output format' -r -f -a "markdown\t'Markdown tables in the layout of the published benchmark documents'
table\t'A table for the terminal'
json\t'{"schema":"pkit/v1","type":"bench","items":[…]}, every cell with mean, min, max and repetitions'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l backend -d 'The crypto backend under measurement: OpenSSL, or a PKCS#11 module on a throwaway token (the CA\'s key, signatures and verification go through it)' -r -f -a "openssl\t'OpenSSL, linked in (the default)'
nss\t'NSS\'s softoken through PKCS#11 (a throwaway database unless --nss-db names one)'
softhsm\t'SoftHSM2 through PKCS#11 (a throwaway token)'"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l nss-db -d 'With --backend nss: this NSS database instead of a throwaway one' -r -F
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l pin -d 'With --nss-db: the database\'s password (pass:, env:, file:, fd:)' -r
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from compare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "crypto" -d 'Key generation, signing and verification per algorithm, and SHA-256, on one thread and on all: the raw limits the pipelines are judged against'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "parse" -d 'Certificate parsing (parse-only and parse+fields), one thread and all threads'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "x509" -d 'The X.509 pipeline: CA, issuance, store and OCSP, stage by stage'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Chain validation as `pkit verify` does it (leaf, intermediate, root) beside the raw signature-verify limit, and indexing a trust store'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "mtc" -d 'The Merkle Tree Certificate pipeline: entries, tree, proofs, checkpoint, standalone certificates, stage by stage'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "compare" -d 'Two algorithms through the X.509 pipeline, one sweep table per operation'
complete -c pkit -n "__fish_pkit_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand completions" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand completions" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand gen-docs" -l color -d 'When to colour text output (never for JSON). NO_COLOR also turns it off' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pkit -n "__fish_pkit_using_subcommand gen-docs" -s h -l help -d 'Print help'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "parse" -d 'Read certificates, CSRs, CRLs, OCSP messages, PKCS#7, PKCS#12, keys or any ASN.1'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "key" -d 'Generate private keys and extract public keys'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "issue" -d 'Issue certificates: CAs, CSRs, leaves, batches; the CA\'s state lives in ca.db'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "crl" -d 'Revocation: revoke in a CA\'s ca.db, generate and verify CRLs, look serials up'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "ocsp" -d 'OCSP: build requests, answer them from a CA\'s ca.db, verify responses, serve HTTP'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "verify" -d 'Is a certificate to be trusted: build and validate its path to a trusted root (RFC 5280), with names, purposes, policies and revocation'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "lint" -d 'Check certificates, CRLs, OCSP responses and CSRs against RFC 5280 and the CA/Browser Forum Baseline Requirements (TLS and S/MIME): each finding with its rule, level, source, field and byte offset'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "acme" -d 'Serve ACME (RFC 8555) for a CA, so that a fleet\'s clients (certbot, lego, Caddy, cert-manager) get and renew certificates by themselves; inspect its accounts and orders'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "ca" -d 'Run a CA\'s public face: one server for every URL its certificates point to (OCSP, CRLs, issuer certificates), with health, metrics and ACME'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "mtc" -d 'Merkle Tree Certificates: run an MTC CA, issue and verify MTC certificates'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "bench" -d 'Measure the pipelines (X.509, OCSP, MTC), parsing and raw crypto on this machine'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "completions" -d 'Print shell completions (bash, zsh, fish)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "gen-docs" -d 'Write man pages and completions into a directory (used to refresh man/ and completions/)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and not __fish_seen_subcommand_from parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "gen" -d 'Generate a private key and write it as PKCS#8 (PEM by default, mode 0600)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "pub" -d 'Write the public key (SubjectPublicKeyInfo) of a private key'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "p12" -d 'Write a key, its certificate and chain as a PKCS#12 file (PBES2 AES-256, HMAC-SHA-256 MAC), for Java keystores, Windows and browsers'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from issue" -f -a "ca" -d 'Create a CA directory: a root, or an intermediate with --parent'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from issue" -f -a "csr" -d 'Create a PKCS#10 certificate signing request'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from issue" -f -a "cert" -d 'Issue one certificate from a CSR or for a fresh key'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from issue" -f -a "batch" -d 'Issue many certificates in parallel (from a count or a JSONL manifest)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from issue" -f -a "renew" -d 'Issue a certificate again: same subject, SANs, profile and extensions, a new serial and validity (and key, with --key-out); the records link the two'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from issue" -f -a "policy" -d 'Show, change or try a CA\'s policy on the names it certifies (ca.json allow/deny)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from issue" -f -a "list" -d 'List the certificates a CA has issued'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from issue" -f -a "export" -d 'Print one issued certificate by serial number'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from crl" -f -a "revoke" -d 'Record a revocation in a CA directory\'s ca.db'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from crl" -f -a "gen" -d 'Generate and sign a CRL (v2) over the CA\'s revoked certificates'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from crl" -f -a "verify" -d 'Check a CRL: issuer, key identifier, signature, thisUpdate/nextUpdate'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from crl" -f -a "check" -d 'Look serial numbers up in a CRL (exit 1 when any is listed)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from ocsp" -f -a "request" -d 'Build an OCSP request (RFC 6960) for a certificate; with --url, send it and check the answer'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from ocsp" -f -a "respond" -d 'Answer an OCSP request from a CA directory\'s ca.db'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from ocsp" -f -a "verify" -d 'Check an OCSP response: signer, certificate, nonce, freshness, status'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from ocsp" -f -a "serve" -d 'Run an OCSP responder over HTTP (RFC 6960 Appendix A) for a CA directory'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from acme" -f -a "serve" -d 'Serve ACME (RFC 8555) for a CA directory: accounts, orders, http-01, dns-01 and tls-alpn-01 challenges validated from the server, certificates through the CA\'s lint gate'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from acme" -f -a "accounts" -d 'The ACME accounts of a CA (text or JSON)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from acme" -f -a "orders" -d 'The ACME orders of a CA, optionally of one account (text or JSON)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from ca" -f -a "serve" -d 'Serve every URL the CAs write into certificates — OCSP, CRLs kept current, issuer certificates — with /health and /metrics, and ACME with --acme, from one process'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "ca" -d 'Create an MTC CA'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "add" -d 'Append certificate requests to the issuance log'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "checkpoint" -d 'Sign a checkpoint and the covering subtrees of the entries added since the last'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "cert" -d 'Write a standalone (default) or landmark-relative certificate for a log entry, and record it in mtc.db'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "landmark" -d 'Allocate and list landmarks'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "proof" -d 'Print the inclusion proof of an entry'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "consistency" -d 'Print the consistency proof between two tree sizes'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "verify" -d 'Verify an MTC certificate (draft §7.2): exit 0 valid, 1 invalid, 3 unparseable'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "size" -d 'Compare certificate sizes: standalone, landmark-relative, X.509 leaf + intermediate'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "tiles" -d 'Write the log as static tlog-tiles files (checkpoint, landmarks, tiles, entry bundles), incrementally'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "serve" -d 'Serve the log over HTTP as tlog-tiles (checkpoint, landmarks, tiles, entry bundles)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "audit" -d 'Audit a served log: signatures, the root from the tiles, consistency with the tree seen before (exit 1 on a fork or a bad tile)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "cosign" -d 'Witness a served log: check its checkpoint and that it extends the one cosigned last, then print a cosignature line (tlog-cosignature)'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from mtc" -f -a "witness" -d 'Run a witness over HTTP (c2sp.org/tlog-witness) for logs to submit their checkpoints to'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "crypto" -d 'Key generation, signing and verification per algorithm, and SHA-256, on one thread and on all: the raw limits the pipelines are judged against'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "parse" -d 'Certificate parsing (parse-only and parse+fields), one thread and all threads'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "x509" -d 'The X.509 pipeline: CA, issuance, store and OCSP, stage by stage'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "verify" -d 'Chain validation as `pkit verify` does it (leaf, intermediate, root) beside the raw signature-verify limit, and indexing a trust store'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "mtc" -d 'The Merkle Tree Certificate pipeline: entries, tree, proofs, checkpoint, standalone certificates, stage by stage'
complete -c pkit -n "__fish_pkit_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "compare" -d 'Two algorithms through the X.509 pipeline, one sweep table per operation'
