//! How a client authenticates to the coordinator: the channel to its URL
//! (over TLS trusting a CA when given) and the bearer token sent with every
//! request.

use tonic::transport::Channel;

/// A channel to `url`, over TLS trusting `ca` when given.
///
/// # Errors
/// A malformed URL or TLS setting; connecting happens later.
pub fn endpoint(url: &str, ca: Option<&[u8]>) -> Result<tonic::transport::Endpoint, String> {
    let mut endpoint = Channel::from_shared(url.to_owned()).map_err(|e| format!("{url}: {e}"))?;
    if let Some(ca) = ca {
        let tls = tonic::transport::ClientTlsConfig::new()
            .ca_certificate(tonic::transport::Certificate::from_pem(ca));
        endpoint = endpoint
            .tls_config(tls)
            .map_err(|e| format!("{url}: TLS: {e}"))?;
    }
    Ok(endpoint)
}

/// Adds the bearer token to every request.
#[derive(Clone)]
pub struct Auth(tonic::metadata::MetadataValue<tonic::metadata::Ascii>);

impl Auth {
    /// Sends `value` (`Bearer TOKEN`) as the authorization header.
    pub fn new(value: tonic::metadata::MetadataValue<tonic::metadata::Ascii>) -> Auth {
        Auth(value)
    }
}

impl tonic::service::Interceptor for Auth {
    fn call(
        &mut self,
        mut request: tonic::Request<()>,
    ) -> Result<tonic::Request<()>, tonic::Status> {
        request
            .metadata_mut()
            .insert("authorization", self.0.clone());
        Ok(request)
    }
}
