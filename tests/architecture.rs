//! The architecture of docs/architecture.md, held by a test:
//!
//! - imports point one way: `cmd → bench → describe → mtc → pki → der`, with `store`
//!   beside `pki` (used by `pki/ca`, `mtc`, `bench` and `cmd`), `tls` under `pki`,
//!   `serve` (the HTTP services) above `mtc`, `acme` above `serve`, and `fuzzing` (the
//!   fuzz targets' bodies) beside `bench`; the crates' own dependencies, which the
//!   compiler holds too, draw the same graph;
//! - no two modules import each other, directly or around a longer cycle;
//! - nothing but `cmd` prints, exits or knows clap;
//! - every library crate denies `missing_docs` and `unreachable_pub`;
//! - `unsafe` appears only under `pki/backend/` (the crates `pkit-openssl`
//!   and `pkit-pkcs11`), in the crate `pkit-tls` and in
//!   `src/main.rs` (the allocator hooks), and every other module carries
//!   `#![forbid(unsafe_code)]`.
//!
//! Every library crate of the workspace (the folders under `src/` with a `Cargo.toml`,
//! listed in [`CRATES`]) is read as the module of `pkit` it is re-exported as (see
//! [`crates_as_modules`]); a finding in one is named by that module path. `pkit`'s own
//! modules are the rest of `src/`.
//!
//! The checker reads `src/` as text: `use` trees and paths (`crate::`, `pkit::`,
//! `super::`, `self::`, a child module's name) outside comments, strings and test code,
//! resolved to the module files they name (through a module's `pub use` re-exports).
//! Its own tests feed it small made-up trees, so it is known to fail when it should.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level modules, and which of them each may import.
#[rustfmt::skip]
const ALLOWED: &[(&str, &[&str])] = &[
    ("der", &["der"]),
    ("store", &["der", "store"]),
    // TLS as a client on the linked OpenSSL: the OpenSSL backend's `--connect`
    // handshake calls it, and its PostgreSQL connector is what the stores are handed
    // (`pg_connect.rs`, with the check a database URL asks for, from `store`). It reads a
    // root file's PEM with the DER engine's one PEM reader.
    ("tls", &["der", "store", "tls"]),
    ("pki", &["der", "pki", "store", "tls"]),
    ("mtc", &["der", "pki", "store", "mtc"]),
    // The `parse` model: every object, MTC proofs and checkpoints included.
    ("describe", &["der", "pki", "store", "mtc", "describe"]),
    // The HTTP services: the layer under the servers and each server's answers.
    ("serve", &["der", "pki", "store", "mtc", "serve"]),
    // The ACME server: its protocol on the HTTP layer, its state in the CA's store.
    ("acme", &["der", "pki", "store", "mtc", "serve", "acme"]),
    // The benchmark's PostgreSQL stages connect as the commands do (`tls::pg_connect`).
    ("bench", &["der", "pki", "store", "tls", "mtc", "describe", "bench"]),
    // The fuzz targets' bodies: beside `bench`, calling what the commands call.
    ("fuzzing", &["der", "pki", "store", "mtc", "describe", "serve", "acme", "fuzzing"]),
    ("cmd", &["der", "pki", "store", "tls", "mtc", "describe", "serve", "acme", "bench", "cmd"]),
];

/// Within `pki`, only the CA keeps state, so only it may use `store`.
const PKI_STORE_USERS: &str = "pki::ca";

/// Where `unsafe` may appear: the backends (the crates `pkit-openssl` and `pkit-pkcs11`,
/// read as `pki/backend/openssl/` and `pki/backend/pkcs11/`), the crate `pkit-tls` (OpenSSL's TLS, one FFI
/// call) and the binary's allocator hooks.
const UNSAFE_ALLOWED: &[&str] = &["pki/backend/", "tls/", "main.rs"];

/// What only the command line may do.
const FRONT_END_ONLY: &[(&str, &str)] = &[
    ("println!", "prints"),
    ("print!", "prints"),
    ("eprintln!", "prints"),
    ("eprint!", "prints"),
    ("dbg!", "prints"),
    ("process::exit", "exits"),
    ("clap::", "knows clap"),
    ("indicatif::", "draws progress bars"),
];

type Module = Vec<String>;

struct File {
    /// Relative to `src/`, with `/`.
    path: String,
    module: Module,
    /// The code outside comments, string contents and `#[cfg(test)]` items.
    code: String,
    /// The whole text (for the crate attributes).
    text: String,
}

fn module_of(path: &str) -> Module {
    let stem = path.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    }
    parts
}

/// The code with comments removed and string and char literals emptied, so that only
/// real paths are seen.
fn strip(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !ident_char(b.get(i.wrapping_sub(1)).copied())
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}'), or a lifetime ('a) left as it is.
            if next == Some('\\') {
                let mut j = i + 2;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
                out.push_str("' '");
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The code before the file's first `#[cfg(test)]` (tests sit at the end of each file).
fn without_tests(code: &str) -> &str {
    code.find("#[cfg(test)]").map_or(code, |i| &code[..i])
}

/// Modules declared with `mod NAME;` in `code`.
fn children(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("mod ") {
        if ident_char(code[..i].chars().next_back()) {
            continue;
        }
        let rest = &code[i + 4..];
        let name: String = rest.chars().take_while(|c| ident_char(Some(*c))).collect();
        if !name.is_empty() && rest[name.len()..].trim_start().starts_with(';') {
            out.insert(name);
        }
    }
    out
}

/// Files that are test modules: declared under `#[cfg(test)]` by their parent.
fn test_children(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find("#[cfg(test)]") {
        rest = &rest[i + "#[cfg(test)]".len()..];
        let mut s = rest.trim_start();
        while s.starts_with("#[") {
            s = s[s.find(']').map_or(s.len(), |e| e + 1)..].trim_start();
        }
        if let Some(decl) = s.strip_prefix("mod ") {
            let name: String = decl.chars().take_while(|c| ident_char(Some(*c))).collect();
            if decl[name.len()..].trim_start().starts_with(';') {
                out.insert(name);
            }
        }
    }
    out
}

/// Expand the `use` tree `tree` (the text between `use` and `;`) into paths.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn go(prefix: &[String], s: &str, out: &mut Vec<Vec<String>>) {
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        if let Some(open) = s.find('{') {
            let close = s.rfind('}').unwrap_or(s.len());
            let mut p = prefix.to_vec();
            p.extend(segments(&s[..open]));
            // Split the group on top-level commas.
            let inner = &s[open + 1..close];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        go(&p, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            go(&p, &inner[start..], out);
        } else {
            let s = s.split(" as ").next().unwrap_or(s);
            let mut p = prefix.to_vec();
            p.extend(segments(s));
            if p.last().is_some_and(|l| l == "self") {
                p.pop();
            }
            out.push(p);
        }
    }
    fn segments(s: &str) -> Vec<String> {
        s.split("::")
            .map(str::trim)
            .filter(|x| !x.is_empty() && *x != "*")
            .map(str::to_string)
            .collect()
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

/// Every path in `code`: the expanded `use` trees, and paths written in place that start
/// with `crate`, `pkit`, `super`, `self` or one of `kids`.
fn paths(code: &str, kids: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let word_start = !ident_char(rest[..i].chars().next_back());
        rest = &rest[i + 4..];
        if word_start {
            if let Some(end) = rest.find(';') {
                out.extend(expand_use(&rest[..end]));
            }
        }
    }
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let (i, c) = chars[k];
        if ident_char(Some(c)) && (k == 0 || !ident_char(Some(chars[k - 1].1))) {
            let before = code[..i].trim_end();
            let after_colons = before.ends_with("::");
            let mut end = i;
            while end < code.len()
                && (ident_char(code[end..].chars().next()) || code[end..].starts_with("::"))
            {
                end += if code[end..].starts_with("::") {
                    2
                } else {
                    code[end..].chars().next().map_or(1, char::len_utf8)
                };
            }
            let path: Vec<String> = code[i..end]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            if !after_colons && path.len() > 1 {
                let head = path[0].as_str();
                if matches!(head, "crate" | "pkit" | "super" | "self") || kids.contains(head) {
                    out.push(path);
                }
            }
            while k < chars.len() && chars[k].0 < end {
                k += 1;
            }
        } else {
            k += 1;
        }
    }
    out
}

struct Tree {
    files: Vec<File>,
    modules: BTreeMap<Module, usize>,
    /// Per module: item name → the module it is re-exported from (`pub use child::Item`).
    reexports: BTreeMap<Module, BTreeMap<String, Module>>,
}

impl Tree {
    fn new(sources: &[(String, String)]) -> Tree {
        let mut tests: BTreeSet<Module> = BTreeSet::new();
        for (path, text) in sources {
            for name in test_children(text) {
                let mut m = module_of(path);
                m.push(name);
                tests.insert(m);
            }
        }
        let mut files = Vec::new();
        for (path, text) in sources {
            let module = module_of(path);
            if tests.contains(&module) {
                continue;
            }
            let code = without_tests(&strip(text)).to_string();
            files.push(File {
                path: path.clone(),
                module,
                code,
                text: text.clone(),
            });
        }
        let modules = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        let mut t = Tree {
            files,
            modules,
            reexports: BTreeMap::new(),
        };
        for i in 0..t.files.len() {
            let f = &t.files[i];
            let kids = children(&f.code);
            let mut map = BTreeMap::new();
            for (j, _) in f.code.match_indices("pub use ") {
                let rest = &f.code[j + 8..];
                let Some(end) = rest.find(';') else { continue };
                for p in expand_use(&rest[..end]) {
                    if let (Some(name), Some((target, _))) =
                        (p.last(), t.resolve_module(&f.module, &p, &kids))
                    {
                        if target != f.module {
                            map.insert(name.clone(), target);
                        }
                    }
                }
            }
            let m = t.files[i].module.clone();
            t.reexports.insert(m, map);
        }
        t
    }

    /// The longest module prefix of `path` as seen from `from`, without re-exports, and
    /// how many segments of `path` it took.
    fn resolve_module(
        &self,
        from: &Module,
        path: &[String],
        kids: &BTreeSet<String>,
    ) -> Option<(Module, usize)> {
        let (mut base, mut used) = match path.first()?.as_str() {
            "crate" | "pkit" => (Vec::new(), 1),
            "self" => (from.clone(), 1),
            "super" => {
                let mut b = from.clone();
                let mut n = 0;
                while path.get(n).is_some_and(|s| s == "super") {
                    b.pop();
                    n += 1;
                }
                (b, n)
            }
            head if kids.contains(head) => (from.clone(), 0),
            _ => return None,
        };
        let mut best = self
            .modules
            .contains_key(&base)
            .then(|| (base.clone(), used));
        for seg in &path[used..] {
            base.push(seg.clone());
            used += 1;
            if !self.modules.contains_key(&base) {
                break;
            }
            best = Some((base.clone(), used));
        }
        best
    }

    /// The module `path` depends on: its longest module prefix, or the module that one
    /// re-exports the next name from.
    fn resolve(&self, from: &Module, path: &[String], kids: &BTreeSet<String>) -> Option<Module> {
        let (m, used) = self.resolve_module(from, path, kids)?;
        let reexported = path
            .get(used)
            .and_then(|next| self.reexports.get(&m)?.get(next));
        Some(reexported.cloned().unwrap_or(m))
    }

    /// Module → the modules its code depends on.
    fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut out = BTreeMap::new();
        for f in &self.files {
            let kids = children(&f.code);
            let mut deps = BTreeSet::new();
            for p in paths(&f.code, &kids) {
                if let Some(t) = self.resolve(&f.module, &p, &kids) {
                    if t != f.module && !t.is_empty() {
                        deps.insert(t);
                    }
                }
            }
            out.insert(f.module.clone(), deps);
        }
        out
    }

    fn check(&self) -> Vec<String> {
        let mut bad = Vec::new();
        let edges = self.edges();
        let name = |m: &Module| {
            if m.is_empty() {
                "crate".to_string()
            } else {
                m.join("::")
            }
        };
        for (from, deps) in &edges {
            let Some(top) = from.first() else { continue };
            let Some((_, allowed)) = ALLOWED.iter().find(|(t, _)| t == top) else {
                bad.push(format!(
                    "{}: a top-level module the architecture does not know",
                    name(from)
                ));
                continue;
            };
            for to in deps {
                let to_top = to[0].as_str();
                let pki_store =
                    top == "pki" && to_top == "store" && !name(from).starts_with(PKI_STORE_USERS);
                if !allowed.contains(&to_top) || pki_store {
                    bad.push(format!(
                        "{} imports {}: a wrong-way import",
                        name(from),
                        name(to)
                    ));
                }
            }
        }
        for cycle in cycles(&edges) {
            let names: Vec<String> = cycle.iter().map(&name).collect();
            bad.push(format!("import cycle: {}", names.join(" <-> ")));
        }
        for f in &self.files {
            let library = f.module.first().is_some_and(|t| t != "cmd");
            if library {
                for (needle, what) in FRONT_END_ONLY {
                    if contains_token(&f.code, needle) {
                        bad.push(format!("src/{}: {what} ({needle}): only cmd/ may", f.path));
                    }
                }
            }
            let unsafe_ok = UNSAFE_ALLOWED.iter().any(|p| f.path.starts_with(p));
            if !unsafe_ok
                && contains_token(&strip(&f.text), "unsafe")
                && !only_in_forbid(&strip(&f.text))
            {
                bad.push(format!(
                    "src/{}: unsafe outside pki/backend/, tls/ and main.rs",
                    f.path
                ));
            }
        }
        // Every module root outside the backend forbids unsafe code: the top-level ones
        // and, in pki (whose backend needs unsafe), each of pki's children.
        for f in &self.files {
            let m = &f.module;
            let root = match m.as_slice() {
                [top] => top != "pki" && top != "tls",
                [top, child] => top == "pki" && child != "backend",
                _ => false,
            };
            if root && !f.text.contains("#![forbid(unsafe_code)]") {
                bad.push(format!("src/{}: lacks #![forbid(unsafe_code)]", f.path));
            }
        }
        bad
    }
}

fn only_in_forbid(code: &str) -> bool {
    code.matches("unsafe").count() == code.matches("unsafe_code").count()
}

fn contains_token(code: &str, needle: &str) -> bool {
    code.match_indices(needle).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + needle.len()..].chars().next();
        let starts_word = !ident_char(before) || needle.starts_with(|c: char| !c.is_alphanumeric());
        // `print!` must not match inside `eprint!`, nor `unsafe` inside `unsafe_code`.
        let ends_word =
            !ident_char(after) || needle.ends_with(|c: char| !c.is_alphanumeric() && c != '_');
        starts_word && ends_word && !(needle == "unsafe" && after == Some('_'))
    })
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct S<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut S<'a>, v: &'a Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(ws) = s.edges.get(v) {
            for w in ws {
                let Some((w, _)) = s.edges.get_key_value(w) else {
                    continue;
                };
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(lw));
                } else if s.on.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(iw));
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.push(w.clone());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = S {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

fn read_tree(root: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                // Another crate's folder inside this one's (src/der in `pkit`'s src/).
                if !is_crate_dir(&p) {
                    walk(&p, root, out);
                }
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// The workspace's library crates: each one's folder (its sources sit directly in it),
/// the module of `pkit` it is read as, and the names its paths to the other crates take.
/// A crate is read as the module it is re-exported as (`pkit-x509` as `pki`, `pkit-ca`
/// as `pki::ca`, `pkit-openssl` and `pkit-pkcs11` as `pki::backend::openssl` and
/// `pki::backend::pkcs11`, …), but for `pkit-lint`, which
/// the CA's lint gate calls, read as `pki::lint`, the PKI layer it belongs to and the
/// folder it sits in; and `pkit-tls` as `tls`.
const CRATES: &[(&str, &str, &str)] = &[
    ("src/der", "der", "pkit_der"),
    ("src/store", "store", "pkit_store"),
    ("src/tls", "tls", "pkit_tls"),
    ("src/pki/x509", "pki", "pkit_x509"),
    ("src/pki/openssl", "pki::backend::openssl", "pkit_openssl"),
    ("src/pki/pkcs11", "pki::backend::pkcs11", "pkit_pkcs11"),
    ("src/pki/lint", "pki::lint", "pkit_lint"),
    ("src/pki/ca", "pki::ca", "pkit_ca"),
    ("src/pki/verify", "pki::verify", "pkit_verify"),
    ("src/pki/describe", "describe", "pkit_describe"),
    ("src/pki/acme", "acme", "pkit_acme"),
    ("src/mtc", "mtc", "pkit_mtc"),
    ("src/serve", "serve", "pkit_serve"),
    ("src/bench", "bench", "pkit_bench"),
];

/// The library crates as the modules of `pkit` of [`CRATES`]: their paths (`crate::cert`,
/// `pkit_x509::backend`) written as `crate::pki::…`, so that the same rules hold inside
/// them and between them and the rest.
fn crates_as_modules(root: &Path) -> Vec<(String, String)> {
    fn rebase(text: &str, own: &str) -> String {
        // `crate::der` (each crate's `use pkit_der as der`) stays the top-level `der`;
        // every other `crate::` path is the crate's own, under `own`.
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(i) = rest.find("crate::") {
            out.push_str(&rest[..i]);
            let after = &rest[i + "crate::".len()..];
            out.push_str("crate::");
            if !(after.starts_with("der::") || after.starts_with("der;")) {
                out.push_str(own);
            }
            rest = after;
        }
        out.push_str(rest);
        // Another crate's paths are those `pkit` re-exports it under.
        for (_, module, name) in CRATES {
            out = out.replace(&format!("{name}::"), &format!("crate::{module}::"));
        }
        out
    }
    let mut out = Vec::new();
    for (dir, module, _) in CRATES {
        let crate_dir = root.join(dir);
        assert!(
            crate_dir.join("Cargo.toml").is_file(),
            "{dir}: not a crate's folder"
        );
        let own = format!("{module}::");
        let base = module.replace("::", "/");
        // A build script speaks to Cargo on stdout and is no part of the library; a
        // crate whose `build.rs` is a module (`pkit-verify`'s path building) says
        // `build = false`.
        let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).unwrap();
        let build_script = !manifest.contains("build = false");
        for (rel, text) in read_tree(&crate_dir) {
            if build_script && rel == "build.rs" {
                continue;
            }
            let rel = if rel == "lib.rs" {
                "mod.rs".to_string()
            } else {
                rel
            };
            let mut text = rebase(&text, &own);
            if *module == "pki" && rel == "mod.rs" {
                // The crates `pkit` puts under `pkit::pki` (src/pki/mod.rs).
                text.push_str("\npub mod ca;\npub mod lint;\npub mod verify;\n");
            }
            if *module == "pki" && rel == "backend/mod.rs" {
                text.push_str("\npub mod pkcs11;\n");
            }
            out.push((format!("{base}/{rel}"), text));
        }
    }
    out
}

/// The folders under `src/` that hold a crate of their own (a `Cargo.toml`): not modules
/// of the `pkit` library, whose sources `read_tree` would otherwise take them for.
fn is_crate_dir(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file()
}

/// The folders under `src/` with a `Cargo.toml`, relative to the root.
fn workspace_crates(root: &Path) -> BTreeSet<String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeSet<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if is_crate_dir(&p) {
                    let rel = p.strip_prefix(root).unwrap().to_string_lossy();
                    out.insert(rel.replace('\\', "/"));
                }
                walk(&p, root, out);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&root.join("src"), root, &mut out);
    out
}

#[test]
fn src_follows_the_architecture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // `pkit`'s own modules (src/pki/mod.rs, its re-exports of the PKI crates, is what
    // `crates_as_modules` stands in for), then every crate of the workspace.
    let mut files: Vec<(String, String)> = read_tree(&root.join("src"))
        .into_iter()
        .filter(|(rel, _)| rel != "pki/mod.rs")
        .collect();
    files.extend(crates_as_modules(root));
    let members = workspace_crates(root);
    let read: BTreeSet<String> = CRATES.iter().map(|(d, _, _)| d.to_string()).collect();
    assert_eq!(
        members, read,
        "the workspace's crates under src/ and the crates this test reads differ"
    );
    let tree = Tree::new(&files);
    assert!(
        tree.files.len() > 50,
        "read only {} files under src/",
        tree.files.len()
    );
    let mut bad = tree.check();
    bad.extend(api_discipline(root));
    bad.extend(undocumented_files(root));
    assert!(
        bad.is_empty(),
        "the architecture is broken:\n  {}",
        bad.join("\n  ")
    );
}

/// The files under src/ (every crate's, test modules' included) that do not open with a
/// module doc, which docs/architecture.md promises each one does.
fn undocumented_files(root: &Path) -> Vec<String> {
    let in_dir = |dir: &'static str| {
        read_tree(&root.join(dir))
            .into_iter()
            .map(move |(rel, text)| (format!("{dir}/{rel}"), text))
    };
    in_dir("src")
        .chain(CRATES.iter().flat_map(|(dir, _, _)| in_dir(dir)))
        .filter(|(_, text)| !text.trim_start().starts_with("//!"))
        .map(|(rel, _)| format!("{rel}: no module doc (`//! …`) at the top"))
        .collect()
}

/// Every library crate keeps its API as rustls does: the compiler refuses an
/// undocumented public item and a `pub` item nothing outside the crate can reach.
const API_LINTS: &str = "#![deny(missing_docs, unreachable_pub)]";

/// The crates whose `lib.rs` lacks [`API_LINTS`].
fn api_discipline(root: &Path) -> Vec<String> {
    CRATES
        .iter()
        .filter(|(dir, _, _)| {
            let lib = std::fs::read_to_string(root.join(dir).join("lib.rs")).unwrap_or_default();
            !lib.lines().any(|l| l.trim() == API_LINTS)
        })
        .map(|(dir, _, _)| format!("{dir}/lib.rs: lacks {API_LINTS}"))
        .collect()
}

// --- the checker's own tests: small made-up trees ------------------------------------

fn tree(files: &[(&str, &str)]) -> Tree {
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    Tree::new(&sources)
}

const FORBID: &str = "#![forbid(unsafe_code)]\n";

fn base() -> Vec<(&'static str, String)> {
    vec![
        (
            "lib.rs",
            "pub mod der; pub mod pki; pub mod mtc;".to_string(),
        ),
        (
            "der/mod.rs",
            format!("{FORBID}pub mod reader;\npub use reader::Reader;"),
        ),
        ("der/reader.rs", "pub struct Reader;".to_string()),
        ("pki/mod.rs", "pub mod cert; pub mod backend;".to_string()),
        ("pki/cert.rs", format!("{FORBID}use crate::der::Reader;")),
        ("pki/backend/mod.rs", "pub fn f() { unsafe {} }".to_string()),
        ("mtc/mod.rs", format!("{FORBID}use crate::pki::cert;")),
    ]
}

fn with(extra: &[(&'static str, String)]) -> Vec<String> {
    let mut files = base();
    for (p, t) in extra {
        files.retain(|(q, _)| q != p);
        files.push((p, t.clone()));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    tree(&refs).check()
}

#[test]
fn checker_accepts_a_clean_tree() {
    assert_eq!(with(&[]), Vec::<String>::new());
}

#[test]
fn checker_finds_a_wrong_way_import() {
    let bad = with(&[(
        "der/reader.rs",
        "use crate::pki::cert::X; pub struct Reader;".into(),
    )]);
    assert!(
        bad.iter()
            .any(|b| b == "der::reader imports pki::cert: a wrong-way import"),
        "{bad:?}"
    );
    // Written in place, through `pkit::`, and in a nested use tree.
    let bad = with(&[(
        "pki/cert.rs",
        format!("{FORBID}fn g() {{ pkit::mtc::f(); }}"),
    )]);
    assert!(
        bad.iter().any(|b| b.contains("pki::cert imports mtc")),
        "{bad:?}"
    );
    let bad = with(&[(
        "pki/cert.rs",
        format!("{FORBID}use crate::{{der::Reader, mtc::{{self}}}};"),
    )]);
    assert!(
        bad.iter().any(|b| b.contains("pki::cert imports mtc")),
        "{bad:?}"
    );
}

#[test]
fn checker_ignores_comments_strings_and_tests() {
    let text = format!(
        "{FORBID}// crate::mtc::x\n/// [`crate::mtc`]\nconst S: &str = \"crate::mtc::y\";\n\
         #[cfg(test)]\nmod tests {{ use crate::mtc::z; }}"
    );
    assert_eq!(with(&[("pki/cert.rs", text)]), Vec::<String>::new());
}

#[test]
fn checker_finds_cycles_through_re_exports_and_children() {
    let bad = with(&[
        (
            "der/mod.rs",
            format!("{FORBID}pub mod reader; pub mod tag;\npub use reader::Reader;"),
        ),
        ("der/tag.rs", "use super::Reader;".into()),
        ("der/reader.rs", "use super::tag; pub struct Reader;".into()),
    ]);
    assert!(
        bad.iter()
            .any(|b| b == "import cycle: der::reader <-> der::tag"),
        "{bad:?}"
    );
    // A parent that calls its child, and a child that uses what the parent defines.
    let bad = with(&[
        (
            "der/mod.rs",
            format!("{FORBID}pub mod reader;\npub struct E;\nfn f() {{ reader::g(); }}"),
        ),
        ("der/reader.rs", "use super::E;".into()),
    ]);
    assert!(
        bad.iter().any(|b| b == "import cycle: der <-> der::reader"),
        "{bad:?}"
    );
}

#[test]
fn checker_finds_printing_unsafe_and_missing_forbid() {
    let bad = with(&[(
        "pki/cert.rs",
        format!("{FORBID}fn f() {{ eprintln!(\"x\"); }}"),
    )]);
    assert!(
        bad.iter()
            .any(|b| b.contains("pki/cert.rs: prints (eprintln!)")),
        "{bad:?}"
    );
    let bad = with(&[(
        "mtc/mod.rs",
        format!("{FORBID}fn f(a: clap::ArgMatches) {{}}"),
    )]);
    assert!(bad.iter().any(|b| b.contains("knows clap")), "{bad:?}");
    let bad = with(&[("pki/cert.rs", "fn f() { unsafe { g() } }".into())]);
    assert!(
        bad.iter()
            .any(|b| b.contains("pki/cert.rs: unsafe outside")),
        "{bad:?}"
    );
    assert!(
        bad.iter()
            .any(|b| b.contains("pki/cert.rs: lacks #![forbid(unsafe_code)]")),
        "{bad:?}"
    );
}
