//! Link libssl beside the libcrypto that native-ossl-sys links: this crate's handshakes
//! (`pkit verify --connect`, TLS to PostgreSQL) run through the linked OpenSSL. With the static OpenSSL build the
//! xtask provides (NATIVE_OSSL_OPENSSL_SOURCES), libssl.a is in that build's lib/.

fn main() {
    println!("cargo:rerun-if-env-changed=NATIVE_OSSL_OPENSSL_SOURCES");
    if let Some(dir) = std::env::var_os("NATIVE_OSSL_OPENSSL_SOURCES") {
        let dir = std::path::PathBuf::from(dir);
        for d in [dir.clone(), dir.join("lib"), dir.join("lib64")] {
            if d.join("libssl.a").exists() {
                println!("cargo:rustc-link-search=native={}", d.display());
            }
        }
        println!("cargo:rustc-link-lib=static=ssl");
    } else {
        println!("cargo:rustc-link-lib=ssl");
    }
}
