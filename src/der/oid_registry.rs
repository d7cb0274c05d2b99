//! Every OID pkit names, once: a constant for code to compare against, and the name
//! printed in text and JSON output. Names follow the RFCs / OpenSSL long names.

use super::oid::{ObjectId, Oid};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

macro_rules! registry {
    ($($id:ident = $dotted:literal, $name:literal;)*) => {
        $(
            #[doc = concat!("OBJECT IDENTIFIER ", $dotted, ", printed as `", $name, "`.")]
            pub const $id: Oid = Oid::new($dotted);
        )*
        static TABLE: &[(Oid, &str)] = &[$(($id, $name),)*];
    };
}

registry! {
    // Public key algorithms
    RSA_ENCRYPTION = "1.2.840.113549.1.1.1", "rsaEncryption";
    RSASSA_PSS = "1.2.840.113549.1.1.10", "RSASSA-PSS";
    RSAES_OAEP = "1.2.840.113549.1.1.7", "RSAES-OAEP";
    MGF1 = "1.2.840.113549.1.1.8", "mgf1";
    EC_PUBLIC_KEY = "1.2.840.10045.2.1", "id-ecPublicKey";
    DSA = "1.2.840.10040.4.1", "dsa";
    DH = "1.2.840.10046.2.1", "dhpublicnumber";
    ED25519 = "1.3.101.112", "Ed25519";
    ED448 = "1.3.101.113", "Ed448";
    X25519 = "1.3.101.110", "X25519";
    X448 = "1.3.101.111", "X448";
    ML_DSA_44 = "2.16.840.1.101.3.4.3.17", "ML-DSA-44";
    ML_DSA_65 = "2.16.840.1.101.3.4.3.18", "ML-DSA-65";
    ML_DSA_87 = "2.16.840.1.101.3.4.3.19", "ML-DSA-87";
    SLH_DSA_SHA2_128S = "2.16.840.1.101.3.4.3.20", "SLH-DSA-SHA2-128s";
    SLH_DSA_SHA2_128F = "2.16.840.1.101.3.4.3.21", "SLH-DSA-SHA2-128f";
    ML_KEM_512 = "2.16.840.1.101.3.4.4.1", "ML-KEM-512";
    ML_KEM_768 = "2.16.840.1.101.3.4.4.2", "ML-KEM-768";
    ML_KEM_1024 = "2.16.840.1.101.3.4.4.3", "ML-KEM-1024";
    // Curves
    SECP256R1 = "1.2.840.10045.3.1.7", "prime256v1";
    SECP384R1 = "1.3.132.0.34", "secp384r1";
    SECP521R1 = "1.3.132.0.35", "secp521r1";
    SECP256K1 = "1.3.132.0.10", "secp256k1";
    SECP224R1 = "1.3.132.0.33", "secp224r1";
    // Signature algorithms
    MD2_WITH_RSA = "1.2.840.113549.1.1.2", "md2WithRSAEncryption";
    MD5_WITH_RSA = "1.2.840.113549.1.1.4", "md5WithRSAEncryption";
    MD4_WITH_RSA = "1.2.840.113549.1.1.3", "md4WithRSAEncryption";
    SHA1_WITH_RSA = "1.2.840.113549.1.1.5", "sha1WithRSAEncryption";
    SHA224_WITH_RSA = "1.2.840.113549.1.1.14", "sha224WithRSAEncryption";
    SHA256_WITH_RSA = "1.2.840.113549.1.1.11", "sha256WithRSAEncryption";
    SHA384_WITH_RSA = "1.2.840.113549.1.1.12", "sha384WithRSAEncryption";
    SHA512_WITH_RSA = "1.2.840.113549.1.1.13", "sha512WithRSAEncryption";
    ECDSA_WITH_SHA1 = "1.2.840.10045.4.1", "ecdsa-with-SHA1";
    ECDSA_WITH_SHA224 = "1.2.840.10045.4.3.1", "ecdsa-with-SHA224";
    ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2", "ecdsa-with-SHA256";
    ECDSA_WITH_SHA384 = "1.2.840.10045.4.3.3", "ecdsa-with-SHA384";
    ECDSA_WITH_SHA512 = "1.2.840.10045.4.3.4", "ecdsa-with-SHA512";
    DSA_WITH_SHA1 = "1.2.840.10040.4.3", "dsaWithSHA1";
    DSA_WITH_SHA224 = "2.16.840.1.101.3.4.3.1", "dsa_with_SHA224";
    DSA_WITH_SHA256 = "2.16.840.1.101.3.4.3.2", "dsa_with_SHA256";
    // Digests
    MD5 = "1.2.840.113549.2.5", "md5";
    SHA1 = "1.3.14.3.2.26", "sha1";
    SHA224 = "2.16.840.1.101.3.4.2.4", "sha224";
    SHA256 = "2.16.840.1.101.3.4.2.1", "sha256";
    SHA384 = "2.16.840.1.101.3.4.2.2", "sha384";
    SHA512 = "2.16.840.1.101.3.4.2.3", "sha512";
    SHA512_224 = "2.16.840.1.101.3.4.2.5", "sha512-224";
    SHA512_256 = "2.16.840.1.101.3.4.2.6", "sha512-256";
    MD2 = "1.2.840.113549.2.2", "md2";
    MD4 = "1.2.840.113549.2.4", "md4";
    HMAC_SHA1 = "1.2.840.113549.2.7", "hmacWithSHA1";
    HMAC_SHA256 = "1.2.840.113549.2.9", "hmacWithSHA256";
    // Ciphers and PBE (PKCS#5, PKCS#12)
    AES128_CBC = "2.16.840.1.101.3.4.1.2", "aes-128-cbc";
    AES192_CBC = "2.16.840.1.101.3.4.1.22", "aes-192-cbc";
    AES256_CBC = "2.16.840.1.101.3.4.1.42", "aes-256-cbc";
    DES_EDE3_CBC = "1.2.840.113549.3.7", "des-ede3-cbc";
    PBES2 = "1.2.840.113549.1.5.13", "PBES2";
    PBKDF2 = "1.2.840.113549.1.5.12", "PBKDF2";
    SCRYPT = "1.3.6.1.4.1.11591.4.11", "id-scrypt";
    PBE_SHA1_3DES = "1.2.840.113549.1.12.1.3", "pbeWithSHA1And3-KeyTripleDES-CBC";
    PBE_SHA1_RC2_40 = "1.2.840.113549.1.12.1.6", "pbeWithSHA1And40BitRC2-CBC";
    PBE_SHA1_RC4_128 = "1.2.840.113549.1.12.1.1", "pbeWithSHA1And128BitRC4";
    PBE_SHA1_RC4_40 = "1.2.840.113549.1.12.1.2", "pbeWithSHA1And40BitRC4";
    PBE_SHA1_2DES = "1.2.840.113549.1.12.1.4", "pbeWithSHA1And2-KeyTripleDES-CBC";
    PBE_SHA1_RC2_128 = "1.2.840.113549.1.12.1.5", "pbeWithSHA1And128BitRC2-CBC";
    PBE_MD2_DES = "1.2.840.113549.1.5.1", "pbeWithMD2AndDES-CBC";
    PBE_MD5_DES = "1.2.840.113549.1.5.3", "pbeWithMD5AndDES-CBC";
    PBE_MD2_RC2 = "1.2.840.113549.1.5.4", "pbeWithMD2AndRC2-CBC";
    PBE_MD5_RC2 = "1.2.840.113549.1.5.6", "pbeWithMD5AndRC2-CBC";
    PBE_SHA1_DES = "1.2.840.113549.1.5.10", "pbeWithSHA1AndDES-CBC";
    PBE_SHA1_RC2 = "1.2.840.113549.1.5.11", "pbeWithSHA1AndRC2-CBC";
    // RFC 9579 (PKCS#12 MAC with PBKDF2)
    PBMAC1 = "1.2.840.113549.1.5.14", "PBMAC1";
    DES_CBC = "1.3.14.3.2.7", "des-cbc";
    RC2_CBC = "1.2.840.113549.3.2", "rc2-cbc";
    HMAC_SHA224 = "1.2.840.113549.2.8", "hmacWithSHA224";
    HMAC_SHA384 = "1.2.840.113549.2.10", "hmacWithSHA384";
    HMAC_SHA512 = "1.2.840.113549.2.11", "hmacWithSHA512";
    HMAC_SHA512_224 = "1.2.840.113549.2.12", "hmacWithSHA512-224";
    HMAC_SHA512_256 = "1.2.840.113549.2.13", "hmacWithSHA512-256";
    // Distinguished name attributes (X.520, RFC 4519, PKCS#9)
    AT_COMMON_NAME = "2.5.4.3", "CN";
    AT_SURNAME = "2.5.4.4", "SN";
    AT_SERIAL_NUMBER = "2.5.4.5", "serialNumber";
    AT_COUNTRY = "2.5.4.6", "C";
    AT_LOCALITY = "2.5.4.7", "L";
    AT_STATE = "2.5.4.8", "ST";
    AT_STREET = "2.5.4.9", "street";
    AT_ORGANIZATION = "2.5.4.10", "O";
    AT_ORG_UNIT = "2.5.4.11", "OU";
    AT_TITLE = "2.5.4.12", "title";
    AT_DESCRIPTION = "2.5.4.13", "description";
    AT_POSTAL_CODE = "2.5.4.17", "postalCode";
    AT_NAME = "2.5.4.41", "name";
    AT_GIVEN_NAME = "2.5.4.42", "GN";
    AT_INITIALS = "2.5.4.43", "initials";
    AT_GENERATION_QUALIFIER = "2.5.4.44", "generationQualifier";
    AT_DN_QUALIFIER = "2.5.4.46", "dnQualifier";
    AT_PSEUDONYM = "2.5.4.65", "pseudonym";
    AT_ORG_IDENTIFIER = "2.5.4.97", "organizationIdentifier";
    AT_BUSINESS_CATEGORY = "2.5.4.15", "businessCategory";
    AT_DOMAIN_COMPONENT = "0.9.2342.19200300.100.1.25", "DC";
    AT_USER_ID = "0.9.2342.19200300.100.1.1", "UID";
    AT_EMAIL = "1.2.840.113549.1.9.1", "emailAddress";
    AT_JURISDICTION_C = "1.3.6.1.4.1.311.60.2.1.3", "jurisdictionC";
    AT_JURISDICTION_ST = "1.3.6.1.4.1.311.60.2.1.2", "jurisdictionST";
    AT_JURISDICTION_L = "1.3.6.1.4.1.311.60.2.1.1", "jurisdictionL";
    // MTC trust anchor ID attribute (draft-ietf-plants-merkle-tree-certs §5.1)
    AT_TRUST_ANCHOR_ID = "1.3.6.1.5.5.7.25.3", "trustAnchorID";
    // PKCS#9 attributes
    PKCS9_CHALLENGE_PASSWORD = "1.2.840.113549.1.9.7", "challengePassword";
    PKCS9_EXTENSION_REQUEST = "1.2.840.113549.1.9.14", "extensionRequest";
    PKCS9_FRIENDLY_NAME = "1.2.840.113549.1.9.20", "friendlyName";
    PKCS9_LOCAL_KEY_ID = "1.2.840.113549.1.9.21", "localKeyID";
    PKCS9_CONTENT_TYPE = "1.2.840.113549.1.9.3", "contentType";
    PKCS9_MESSAGE_DIGEST = "1.2.840.113549.1.9.4", "messageDigest";
    PKCS9_SIGNING_TIME = "1.2.840.113549.1.9.5", "signingTime";
    PKCS9_X509_CERTIFICATE = "1.2.840.113549.1.9.22.1", "x509Certificate";
    PKCS9_X509_CRL = "1.2.840.113549.1.9.23.1", "x509Crl";
    PKCS9_UNSTRUCTURED_NAME = "1.2.840.113549.1.9.2", "unstructuredName";
    PKCS9_UNSTRUCTURED_ADDRESS = "1.2.840.113549.1.9.8", "unstructuredAddress";
    PKCS9_COUNTER_SIGNATURE = "1.2.840.113549.1.9.6", "countersignature";
    PKCS9_SMIME_CAPABILITIES = "1.2.840.113549.1.9.15", "SMIMECapabilities";
    PKCS9_SDSI_CERTIFICATE = "1.2.840.113549.1.9.22.2", "sdsiCertificate";
    // CMS signed attributes (RFC 5035 §5.4, RFC 6211 §2)
    AA_SIGNING_CERTIFICATE = "1.2.840.113549.1.9.16.2.12", "signingCertificate";
    AA_SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47", "signingCertificateV2";
    CMS_ALGORITHM_PROTECTION = "1.2.840.113549.1.9.52", "cmsAlgorithmProtection";
    // PKCS#12 bag attributes written by Windows and Java
    MS_CSP_NAME = "1.3.6.1.4.1.311.17.1", "msCSPName";
    MS_LOCAL_MACHINE_KEYSET = "1.3.6.1.4.1.311.17.2", "msLocalMachineKeyset";
    ORACLE_TRUSTED_KEY_USAGE = "2.16.840.1.113894.746875.1.1", "oracleTrustedKeyUsage";
    // Authenticode (Microsoft)
    MS_SPC_INDIRECT_DATA = "1.3.6.1.4.1.311.2.1.4", "spcIndirectDataContext";
    MS_SPC_STATEMENT_TYPE = "1.3.6.1.4.1.311.2.1.11", "spcStatementType";
    MS_SPC_SP_OPUS_INFO = "1.3.6.1.4.1.311.2.1.12", "spcSpOpusInfo";
    // X.509 extensions (RFC 5280 §4.2, and common private ones)
    CE_SUBJECT_KEY_ID = "2.5.29.14", "subjectKeyIdentifier";
    CE_KEY_USAGE = "2.5.29.15", "keyUsage";
    CE_PRIVATE_KEY_USAGE_PERIOD = "2.5.29.16", "privateKeyUsagePeriod";
    CE_SUBJECT_ALT_NAME = "2.5.29.17", "subjectAltName";
    CE_ISSUER_ALT_NAME = "2.5.29.18", "issuerAltName";
    CE_BASIC_CONSTRAINTS = "2.5.29.19", "basicConstraints";
    CE_CRL_NUMBER = "2.5.29.20", "cRLNumber";
    CE_CRL_REASON = "2.5.29.21", "cRLReason";
    CE_INVALIDITY_DATE = "2.5.29.24", "invalidityDate";
    CE_DELTA_CRL_INDICATOR = "2.5.29.27", "deltaCRLIndicator";
    CE_ISSUING_DIST_POINT = "2.5.29.28", "issuingDistributionPoint";
    CE_CERTIFICATE_ISSUER = "2.5.29.29", "certificateIssuer";
    CE_NAME_CONSTRAINTS = "2.5.29.30", "nameConstraints";
    CE_CRL_DIST_POINTS = "2.5.29.31", "cRLDistributionPoints";
    CE_CERT_POLICIES = "2.5.29.32", "certificatePolicies";
    CE_ANY_POLICY = "2.5.29.32.0", "anyPolicy";
    CE_POLICY_MAPPINGS = "2.5.29.33", "policyMappings";
    CE_AUTHORITY_KEY_ID = "2.5.29.35", "authorityKeyIdentifier";
    CE_POLICY_CONSTRAINTS = "2.5.29.36", "policyConstraints";
    CE_EXT_KEY_USAGE = "2.5.29.37", "extendedKeyUsage";
    CE_FRESHEST_CRL = "2.5.29.46", "freshestCRL";
    CE_INHIBIT_ANY_POLICY = "2.5.29.54", "inhibitAnyPolicy";
    PE_AUTHORITY_INFO_ACCESS = "1.3.6.1.5.5.7.1.1", "authorityInfoAccess";
    PE_SUBJECT_INFO_ACCESS = "1.3.6.1.5.5.7.1.11", "subjectInfoAccess";
    PE_TLS_FEATURE = "1.3.6.1.5.5.7.1.24", "tlsFeature";
    PE_ACME_IDENTIFIER = "1.3.6.1.5.5.7.1.31", "acmeIdentifier";
    PE_QC_STATEMENTS = "1.3.6.1.5.5.7.1.3", "qcStatements";
    CT_PRECERT_SCTS = "1.3.6.1.4.1.11129.2.4.2", "ctPrecertificateSCTs";
    CT_PRECERT_POISON = "1.3.6.1.4.1.11129.2.4.3", "ctPrecertificatePoison";
    // RFC 6962 §3.3: the same SCT list, delivered in an OCSP singleExtension.
    CT_OCSP_SCTS = "1.3.6.1.4.1.11129.2.4.5", "ctCertificateSCTs";
    // otherName type-ids (Microsoft UPN; RFC 9598 §3)
    ON_MS_UPN = "1.3.6.1.4.1.311.20.2.3", "msUPN";
    ON_SMTP_UTF8_MAILBOX = "1.3.6.1.5.5.7.8.9", "id-on-SmtpUTF8Mailbox";
    NETSCAPE_CERT_TYPE = "2.16.840.1.113730.1.1", "netscapeCertType";
    NETSCAPE_COMMENT = "2.16.840.1.113730.1.13", "netscapeComment";
    MS_CERT_TEMPLATE_NAME = "1.3.6.1.4.1.311.20.2", "msCertificateTemplateName";
    MS_CA_VERSION = "1.3.6.1.4.1.311.21.1", "msCAVersion";
    MS_CERT_TEMPLATE = "1.3.6.1.4.1.311.21.7", "msCertificateTemplate";
    ENTRUST_VERSION_INFO = "1.2.840.113533.7.65.0", "entrustVersionInfo";
    // MTC (draft-ietf-plants-merkle-tree-certs-07)
    PE_MTC_CA = "1.3.6.1.5.5.7.1.38", "id-pe-mtcCA";
    ALG_MTC_PROOF = "1.3.6.1.5.5.7.6.67", "id-alg-mtcProof";
    // Unsigned certificates (RFC 9925): the preferred form of an MTC trust anchor.
    ALG_UNSIGNED = "1.3.6.1.5.5.7.6.36", "id-alg-unsigned";
    // Extended key usages (RFC 5280 §4.2.1.12 and others)
    KP_SERVER_AUTH = "1.3.6.1.5.5.7.3.1", "serverAuth";
    KP_CLIENT_AUTH = "1.3.6.1.5.5.7.3.2", "clientAuth";
    KP_CODE_SIGNING = "1.3.6.1.5.5.7.3.3", "codeSigning";
    KP_EMAIL_PROTECTION = "1.3.6.1.5.5.7.3.4", "emailProtection";
    KP_IPSEC_END_SYSTEM = "1.3.6.1.5.5.7.3.5", "ipsecEndSystem";
    KP_IPSEC_TUNNEL = "1.3.6.1.5.5.7.3.6", "ipsecTunnel";
    KP_IPSEC_USER = "1.3.6.1.5.5.7.3.7", "ipsecUser";
    KP_TIME_STAMPING = "1.3.6.1.5.5.7.3.8", "timeStamping";
    KP_OCSP_SIGNING = "1.3.6.1.5.5.7.3.9", "OCSPSigning";
    KP_ANY = "2.5.29.37.0", "anyExtendedKeyUsage";
    KP_MS_SMARTCARD_LOGON = "1.3.6.1.4.1.311.20.2.2", "msSmartcardLogin";
    KP_MS_CODE_IND = "1.3.6.1.4.1.311.2.1.21", "msCodeInd";
    KP_MS_CODE_COM = "1.3.6.1.4.1.311.2.1.22", "msCodeCom";
    KP_MS_EFS = "1.3.6.1.4.1.311.10.3.4", "msEFS";
    KP_NS_SGC = "2.16.840.1.113730.4.1", "nsSGC";
    KP_MS_SGC = "1.3.6.1.4.1.311.10.3.3", "msSGC";
    // Access methods (RFC 5280 §4.2.2.1)
    AD_OCSP = "1.3.6.1.5.5.7.48.1", "OCSP";
    AD_CA_ISSUERS = "1.3.6.1.5.5.7.48.2", "caIssuers";
    AD_TIME_STAMPING = "1.3.6.1.5.5.7.48.3", "timeStamping";
    AD_CA_REPOSITORY = "1.3.6.1.5.5.7.48.5", "caRepository";
    // Policy qualifiers
    QT_CPS = "1.3.6.1.5.5.7.2.1", "cps";
    QT_UNOTICE = "1.3.6.1.5.5.7.2.2", "userNotice";
    // CA/B Forum policy OIDs
    CABF_DV = "2.23.140.1.2.1", "CABF domain-validated";
    CABF_OV = "2.23.140.1.2.2", "CABF organization-validated";
    CABF_IV = "2.23.140.1.2.3", "CABF individual-validated";
    CABF_EV = "2.23.140.1.1", "CABF extended-validation";
    // OCSP (RFC 6960 §4.4)
    PKIX_OCSP_BASIC = "1.3.6.1.5.5.7.48.1.1", "id-pkix-ocsp-basic";
    PKIX_OCSP_NONCE = "1.3.6.1.5.5.7.48.1.2", "id-pkix-ocsp-nonce";
    PKIX_OCSP_CRL = "1.3.6.1.5.5.7.48.1.3", "id-pkix-ocsp-crl";
    PKIX_OCSP_RESPONSE = "1.3.6.1.5.5.7.48.1.4", "id-pkix-ocsp-response";
    PKIX_OCSP_NOCHECK = "1.3.6.1.5.5.7.48.1.5", "id-pkix-ocsp-nocheck";
    PKIX_OCSP_ARCHIVE_CUTOFF = "1.3.6.1.5.5.7.48.1.6", "id-pkix-ocsp-archive-cutoff";
    PKIX_OCSP_SERVICE_LOCATOR = "1.3.6.1.5.5.7.48.1.7", "id-pkix-ocsp-service-locator";
    PKIX_OCSP_PREF_SIG_ALGS = "1.3.6.1.5.5.7.48.1.8", "id-pkix-ocsp-pref-sig-algs";
    PKIX_OCSP_EXTENDED_REVOKE = "1.3.6.1.5.5.7.48.1.9", "id-pkix-ocsp-extended-revoke";
    // PKCS#7 / CMS content types (RFC 5652 §4–§9)
    PKCS7_DATA = "1.2.840.113549.1.7.1", "pkcs7-data";
    PKCS7_SIGNED_DATA = "1.2.840.113549.1.7.2", "pkcs7-signedData";
    PKCS7_ENVELOPED_DATA = "1.2.840.113549.1.7.3", "pkcs7-envelopedData";
    PKCS7_SIGNED_ENVELOPED = "1.2.840.113549.1.7.4", "pkcs7-signedAndEnvelopedData";
    PKCS7_DIGESTED_DATA = "1.2.840.113549.1.7.5", "pkcs7-digestData";
    PKCS7_ENCRYPTED_DATA = "1.2.840.113549.1.7.6", "pkcs7-encryptedData";
    CT_AUTH_DATA = "1.2.840.113549.1.9.16.1.2", "id-ct-authData";
    CT_TST_INFO = "1.2.840.113549.1.9.16.1.4", "id-ct-TSTInfo";
    CT_COMPRESSED_DATA = "1.2.840.113549.1.9.16.1.9", "id-ct-compressedData";
    CT_AUTH_ENVELOPED_DATA = "1.2.840.113549.1.9.16.1.23", "id-ct-authEnvelopedData";
    CT_CONTENT_INFO = "1.2.840.113549.1.9.16.1.6", "id-ct-contentInfo";
    // PKCS#12 bag types (RFC 7292 §4.2)
    P12_KEY_BAG = "1.2.840.113549.1.12.10.1.1", "keyBag";
    P12_SHROUDED_KEY_BAG = "1.2.840.113549.1.12.10.1.2", "pkcs8ShroudedKeyBag";
    P12_CERT_BAG = "1.2.840.113549.1.12.10.1.3", "certBag";
    P12_CRL_BAG = "1.2.840.113549.1.12.10.1.4", "crlBag";
    P12_SECRET_BAG = "1.2.840.113549.1.12.10.1.5", "secretBag";
    P12_SAFE_CONTENTS_BAG = "1.2.840.113549.1.12.10.1.6", "safeContentsBag";
}

/// FNV-1a: OIDs are short, trusted-size keys; SipHash's DoS resistance buys nothing here
/// and costs most of a lookup.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type Map = HashMap<&'static [u8], &'static str, BuildHasherDefault<Fnv>>;

/// The registry indexed by content octets. Names of DN attributes (2.5.4.n) and X.509
/// extensions (2.5.29.n) — most of the lookups a certificate makes, several per name —
/// are also kept in direct tables by their last arc, so they skip hashing.
struct Index {
    map: Map,
    attributes: [Option<&'static str>; 128],
    extensions: [Option<&'static str>; 128],
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut ix = Index {
            map: TABLE.iter().map(|(o, n)| (o.as_bytes(), *n)).collect(),
            attributes: [None; 128],
            extensions: [None; 128],
        };
        for (o, n) in TABLE {
            match *o.as_bytes() {
                [0x55, 0x04, x] if x < 0x80 => ix.attributes[usize::from(x)] = Some(*n),
                [0x55, 0x1d, x] if x < 0x80 => ix.extensions[usize::from(x)] = Some(*n),
                _ => {}
            }
        }
        ix
    })
}

/// Registry name for OID content octets.
#[inline]
pub fn name(content: &[u8]) -> Option<&'static str> {
    let ix = index();
    match *content {
        [0x55, 0x04, x] if x < 0x80 => ix.attributes[usize::from(x)],
        [0x55, 0x1d, x] if x < 0x80 => ix.extensions[usize::from(x)],
        _ => ix.map.get(content).copied(),
    }
}

/// Names for OIDs read from input: the registry lives here rather than beside [`ObjectId`]
/// so that the OID type knows nothing of the table built from it.
impl ObjectId<'_> {
    /// Human name from the registry, if pkit knows this OID.
    pub fn name(&self) -> Option<&'static str> {
        name(self.as_bytes())
    }

    /// The registry name, or the dotted form.
    pub fn name_or_dotted(&self) -> String {
        self.name().map_or_else(|| self.to_string(), str::to_string)
    }
}

/// Reverse lookup: the OID a registry name stands for (case-insensitive).
pub fn by_name(name: &str) -> Option<Oid> {
    TABLE
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name))
        .map(|(o, _)| *o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_has_no_duplicate_oids() {
        let mut seen = std::collections::HashSet::new();
        for (oid, name) in TABLE {
            assert!(seen.insert(oid.as_bytes()), "duplicate OID for {name}");
        }
    }

    #[test]
    fn lookups() {
        assert_eq!(name(ED25519.as_bytes()), Some("Ed25519"));
        assert_eq!(name(ML_DSA_87.as_bytes()), Some("ML-DSA-87"));
        assert_eq!(
            by_name("cn").map(|o| o.id().to_string()),
            Some("2.5.4.3".into())
        );
    }
}
