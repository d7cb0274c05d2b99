//! RFC 6960 Appendix A.1: an OCSP request sent with GET, as
//! `GET {url}/{url-encoding of base64 encoding of the DER encoding of the OCSPRequest}`.
//! `pkit ocsp serve` reads GET requests through [`decode_get_path`]; the path is the
//! client's to choose, so every byte of it is hostile input.

use base64::Engine;

/// The DER request in the URL `url` (path and query as the HTTP request line has
/// them). The responder answers at the root, so the whole path after the leading `/` is
/// the request (base64 may contain `/`, escaped or not); padding is optional. `None`:
/// not a request.
pub fn decode_get_path(url: &str) -> Option<Vec<u8>> {
    let path = url.split('?').next().unwrap_or("");
    let escaped = path.strip_prefix('/')?;
    // `%XX` escapes to bytes; a `%` not followed by two hex digits stays as it is and
    // then fails as base64, as any other stray character does.
    let text = percent_encoding::percent_decode_str(escaped)
        .decode_utf8()
        .ok()?;
    let engine = base64::engine::general_purpose::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::general_purpose::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    engine.decode(text.trim()).ok().filter(|d| !d.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_paths_decode() {
        assert_eq!(decode_get_path("/MAMCAQE%3D"), Some(vec![0x30, 3, 2, 1, 1]));
        assert_eq!(decode_get_path("/MAMCAQE="), Some(vec![0x30, 3, 2, 1, 1]));
        assert_eq!(decode_get_path("/MAMCAQE"), Some(vec![0x30, 3, 2, 1, 1]));
        assert_eq!(
            decode_get_path("/MAMCAQE=?x=1"),
            Some(vec![0x30, 3, 2, 1, 1])
        );
        assert_eq!(decode_get_path("/MAMC%41QE"), Some(vec![0x30, 3, 2, 1, 1]));
        assert_eq!(decode_get_path("MAMCAQE"), None);
        assert_eq!(decode_get_path("/"), None);
        assert_eq!(decode_get_path("/%zz"), None);
        assert_eq!(decode_get_path("/%"), None);
        assert_eq!(decode_get_path("/%ff"), None);
        assert_eq!(decode_get_path("/!!!"), None);
    }
}
