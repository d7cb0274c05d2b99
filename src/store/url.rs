//! Database URLs as the commands and the stores meet them: whether a location is a
//! PostgreSQL URL rather than a file, and the URL as it may be shown (no password). Plain
//! string work, so it is here with or without the `postgres` feature.

/// Whether `s` names a PostgreSQL database (rather than a file).
pub fn is_url(s: &str) -> bool {
    s.starts_with("postgres://") || s.starts_with("postgresql://")
}

/// `url` as it may be shown: without a password in its user part or its query.
pub fn without_password(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let (head, rest) = url.split_at(scheme_end);
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rfind('@') {
        Some(at) => {
            let (user, host) = authority.split_at(at);
            format!("{}{host}", user.split(':').next().unwrap_or(""))
        }
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|kv| !kv.starts_with("password="))
                .collect();
            if kept.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => tail.to_string(),
    };
    format!("{head}{authority}{tail}")
}
