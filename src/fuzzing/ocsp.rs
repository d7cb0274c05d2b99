//! Targets for OCSP messages as `pkit parse` and `pkit ocsp` read them: requests with
//! their CertIDs, extensions and signature certificates; responses down to every
//! SingleResponse and the certificates they carry.

use super::fields::{self, both_modes};
use crate::der::{Reader, Result};
use crate::pki::ocsp::{CertId, OcspRequest, OcspResponse, ResponderId};
use std::hint::black_box;

pub fn ocsp_request(data: &[u8]) {
    both_modes(data, |r| {
        let mode = r.with_base(&[], 0);
        request(&mode, &OcspRequest::parse(r)?)
    });
}

/// The fields of a request (also what the responder reads before it answers).
pub fn request(mode: &Reader<'_>, q: &OcspRequest<'_>) -> Result<()> {
    black_box((q.version, q.request_list_offset()));
    if let Some(n) = &q.requestor_name {
        fields::show(n);
    }
    for one in q.requests()? {
        cert_id(&one.cert_id);
        fields::extensions(mode, one.single_request_extensions.as_ref())?;
    }
    fields::extensions(mode, q.request_extensions.as_ref())?;
    if let Some(s) = &q.signature {
        fields::algid(&s.signature_algorithm);
        for c in s.certs()? {
            fields::certificate(mode, &c)?;
        }
    }
    Ok(())
}

fn cert_id(id: &CertId<'_>) {
    fields::algid(&id.hash_algorithm);
    black_box((id.serial_hex(), id.issuer_name_hash, id.issuer_key_hash));
}

pub fn ocsp_response(data: &[u8]) {
    both_modes(data, |r| {
        let mode = r.with_base(&[], 0);
        let resp = OcspResponse::parse(r)?;
        black_box((resp.status.code(), resp.status.name()));
        if let Some(b) = &resp.response_bytes {
            fields::oid(b.response_type);
        }
        let Some(b) = &resp.basic else { return Ok(()) };
        match &b.responder_id {
            ResponderId::ByName(n) => fields::name(n)?,
            ResponderId::ByKey(k) => {
                black_box(k);
            }
        }
        black_box((b.version, b.produced_at));
        for s in b.responses()? {
            cert_id(&s.cert_id);
            fields::show(s.cert_status);
            black_box((s.this_update, s.next_update));
            fields::extensions(&mode, s.single_extensions.as_ref())?;
        }
        fields::extensions(&mode, b.response_extensions.as_ref())?;
        fields::algid(&b.signature_algorithm);
        for c in b.certs()? {
            fields::certificate(&mode, &c)?;
        }
        Ok(())
    });
}
