//! Downloads for `concord add URL`: one document at a time, over HTTP or
//! HTTPS, redirects followed, within limits a schema never needs to pass.
//! concord fetches only here, when a user asks it to add or update an
//! entry; a build never does.

use std::time::Duration;

/// The largest document `add` downloads: ten times the corpus's largest schema.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;
/// The most documents one `add` downloads (a schema and what it references).
pub const MAX_DOCUMENTS: usize = 500;
/// Redirects followed for one document.
const MAX_REDIRECTS: u32 = 10;
/// One document's whole download, connection to last byte.
const TIMEOUT: Duration = Duration::from_secs(60);

/// A downloaded document.
#[derive(Debug)]
pub struct Fetched {
    pub bytes: Vec<u8>,
    /// Where it was finally read from, when a redirect was followed.
    pub redirected_to: Option<String>,
}

/// Whether `reference` names something to download: an absolute `http` or `https` URI.
pub fn is_url(reference: &str) -> bool {
    let lower = reference.get(..8).unwrap_or(reference).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Downloads `url` (without its fragment), or says why not: the status, or
/// what failed, with the URL.
pub fn fetch(url: &str) -> Result<Fetched, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .max_redirects(MAX_REDIRECTS)
        .timeout_global(Some(TIMEOUT))
        .http_status_as_error(false)
        .user_agent(concat!("concord/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(|error| format!("cannot download {url}: {error}"))?;
    let status = response.status();
    if !status.is_success() {
        let reason = status.canonical_reason().map(|reason| format!(" {reason}")).unwrap_or_default();
        return Err(format!("cannot download {url}: the server answered {}{reason}", status.as_u16()));
    }
    use ureq::ResponseExt as _;
    let final_uri = response.get_uri().to_string();
    let bytes = response
        .body_mut()
        .with_config()
        .limit(MAX_BYTES)
        .read_to_vec()
        .map_err(|error| format!("cannot download {url}: {error} (concord reads documents of at most {MAX_BYTES} bytes)"))?;
    Ok(Fetched { bytes, redirected_to: (final_uri != url).then_some(final_uri) })
}

/// Where a downloaded document is kept in the registry folder: its host,
/// then its path, each part reduced to characters every file system takes
/// (`https://json.schemastore.org/pm2-ecosystem.json` is
/// `json.schemastore.org/pm2-ecosystem.json`); a path ending in `/` is
/// `index.json`, a query a suffix.
pub fn local_path(url: &str) -> String {
    let without_fragment = url.split('#').next().unwrap_or(url);
    let rest = without_fragment.split_once("://").map_or(without_fragment, |(_, rest)| rest);
    let (rest, query) = rest.split_once('?').map_or((rest, None), |(rest, query)| (rest, Some(query)));
    let clean = |part: &str| -> String {
        let decoded = concord_codegen::schema::percent_decode(part).unwrap_or_else(|| part.to_owned());
        let cleaned: String = decoded.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' }).collect();
        // `.` and `..` name folders: never a part of the path here.
        if cleaned.chars().all(|c| c == '.') {
            cleaned.replace('.', "_")
        } else {
            cleaned
        }
    };
    let mut parts: Vec<String> = rest.split('/').map(clean).collect();
    if parts.last().is_none_or(String::is_empty) {
        parts.pop();
        parts.push("index.json".to_owned());
    }
    parts.retain(|part| !part.is_empty());
    if let (Some(query), Some(last)) = (query, parts.last_mut()) {
        last.push('_');
        last.push_str(&clean(query));
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_keep_their_host_and_path_as_safe_file_names() {
        assert_eq!(local_path("https://json.schemastore.org/pm2-ecosystem.json"), "json.schemastore.org/pm2-ecosystem.json");
        assert_eq!(local_path("http://127.0.0.1:8080/a/b.json#/defs/x"), "127.0.0.1_8080/a/b.json");
        assert_eq!(local_path("https://example.com/schemas/"), "example.com/schemas/index.json");
        assert_eq!(local_path("https://example.com/../x%20y.json?v=2"), "example.com/__/x_y.json_v_2");
        assert!(is_url("HTTPS://example.com/a.json") && !is_url("a.json") && !is_url("file:///a.json"));
    }
}
