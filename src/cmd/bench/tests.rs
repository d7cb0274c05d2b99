//! Unit tests of `bench.rs`.

use super::*;

#[test]
fn reports_show_no_password() {
    let args = [
        "bench",
        "x509",
        "--db",
        "postgres://u:secret@h/db",
        "--db-passin",
        "pass:hunter2",
        "--pin=pass:1234",
        "--db-passin",
        "env:PW",
    ];
    assert_eq!(
        shown_command(args.iter().map(|a| a.to_string())),
        "pkit bench x509 --db postgres://u@h/db --db-passin pass:… --pin=pass:… \
             --db-passin env:PW"
    );
}
