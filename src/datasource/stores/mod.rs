//! Object stores made on demand from the URLs a session meets: `s3://` (AWS and S3-compatible
//! servers: MinIO, Ceph, R2), `gs://`, `az://`/`abfs(s)://` and `http(s)://`, through the
//! `object_store` crate DataFusion reads and writes with.
//!
//! DataFusion looks up the store of every path in its session's registry: tables, `LOCATION`,
//! `read_warc`, `COPY ... TO`. [`UrlStoreRegistry`] answers a URL it has no store for by making
//! one from the URL and the standard environment of its service, so no path needs registering
//! first. S3 settings come from the `AWS_*` variables and, as the AWS tools read them, from the
//! shared credentials and config files of the profile `AWS_PROFILE` names; with no credentials
//! anywhere, requests go unsigned (public buckets). Requests that fail for a transient reason
//! (503 SlowDown, a reset connection, a timeout) are retried with exponential backoff
//! ([`StoreOptions`]). A credential never appears in an error: `object_store` names buckets and
//! paths only, and the builders' errors are replaced by one line that names the URL.

pub(crate) mod carried_stores;
pub mod rooted_store;
pub(crate) mod stream_read;

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use datafusion::common::{DataFusionError, Result};
use datafusion::execution::object_store::{DefaultObjectStoreRegistry, ObjectStoreRegistry};
use datafusion::object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use datafusion::object_store::azure::MicrosoftAzureBuilder;
use datafusion::object_store::gcp::GoogleCloudStorageBuilder;
use datafusion::object_store::http::HttpBuilder;
use datafusion::object_store::{BackoffConfig, ClientOptions, ObjectStore, RetryConfig};
use url::Url;

/// How the stores a session makes talk to their service.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreOptions {
    /// Retries of a request that failed for a transient reason (0: none).
    pub max_retries: usize,
    /// No retry starts later than this after the first attempt.
    pub retry_timeout: Duration,
    /// One request's limit, connecting included.
    pub request_timeout: Duration,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            max_retries: 10,
            retry_timeout: Duration::from_secs(180),
            request_timeout: Duration::from_secs(60),
        }
    }
}

impl StoreOptions {
    /// The defaults, with what `WEBTEXT_STORE_MAX_RETRIES`, `WEBTEXT_STORE_RETRY_TIMEOUT` and
    /// `WEBTEXT_STORE_REQUEST_TIMEOUT` (seconds) set; the error names a bad variable.
    pub fn from_env() -> std::result::Result<StoreOptions, String> {
        let mut options = StoreOptions::default();
        let read = |name: &str| -> std::result::Result<Option<u64>, String> {
            match std::env::var(name) {
                Err(_) => Ok(None),
                Ok(v) => v
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{name}: '{v}' is not a whole number")),
            }
        };
        if let Some(n) = read("WEBTEXT_STORE_MAX_RETRIES")? {
            options.max_retries = n as usize;
        }
        if let Some(s) = read("WEBTEXT_STORE_RETRY_TIMEOUT")? {
            options.retry_timeout = Duration::from_secs(s);
        }
        if let Some(s) = read("WEBTEXT_STORE_REQUEST_TIMEOUT")? {
            options.request_timeout = Duration::from_secs(s.max(1));
        }
        Ok(options)
    }

    fn retry(&self) -> RetryConfig {
        RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: self.max_retries,
            retry_timeout: self.retry_timeout,
        }
    }

    fn client(&self) -> ClientOptions {
        ClientOptions::new()
            .with_timeout(self.request_timeout)
            .with_connect_timeout(self.request_timeout.min(Duration::from_secs(10)))
    }
}

/// The URL schemes a store can be made for.
pub const STORE_SCHEMES: &[&str] = &["s3", "s3a", "gs", "az", "abfs", "abfss", "http", "https"];

/// Whether `path` is a URL of an object store rather than a local path.
pub fn is_store_url(path: &str) -> bool {
    path.split_once("://")
        .is_some_and(|(scheme, _)| STORE_SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()))
}

/// The registry of a session that reaches object stores: DataFusion's (the local file system and
/// the stores registered by hand), and for any other URL a store made from it on first use.
#[derive(Debug)]
pub struct UrlStoreRegistry {
    registered: DefaultObjectStoreRegistry,
    options: StoreOptions,
}

impl UrlStoreRegistry {
    pub fn new(options: StoreOptions) -> UrlStoreRegistry {
        UrlStoreRegistry {
            registered: DefaultObjectStoreRegistry::new(),
            options,
        }
    }
}

impl Default for UrlStoreRegistry {
    fn default() -> Self {
        UrlStoreRegistry::new(StoreOptions::default())
    }
}

impl ObjectStoreRegistry for UrlStoreRegistry {
    fn register_store(
        &self,
        url: &Url,
        store: Arc<dyn ObjectStore>,
    ) -> Option<Arc<dyn ObjectStore>> {
        self.registered.register_store(url, store)
    }

    fn deregister_store(&self, url: &Url) -> Result<Arc<dyn ObjectStore>> {
        self.registered.deregister_store(url)
    }

    fn get_store(&self, url: &Url) -> Result<Arc<dyn ObjectStore>> {
        if let Ok(store) = self.registered.get_store(url) {
            return Ok(store);
        }
        let store = store_for_url(url, &self.options)?;
        // Two partitions asking at once may both make one; the first registered is kept.
        match self.registered.register_store(url, Arc::clone(&store)) {
            Some(_) => self.registered.get_store(url),
            None => Ok(store),
        }
    }
}

/// Makes the store that serves `url` (its bucket, container or host), configured from the
/// environment of its service.
pub fn store_for_url(url: &Url, options: &StoreOptions) -> Result<Arc<dyn ObjectStore>> {
    let base = format!("{}://{}", url.scheme(), url.authority());
    let made: std::result::Result<Arc<dyn ObjectStore>, _> = match url.scheme() {
        "s3" | "s3a" => s3_builder(&base, options).build().map(|s| Arc::new(s) as _),
        "gs" => GoogleCloudStorageBuilder::from_env()
            .with_url(&base)
            .with_retry(options.retry())
            .build()
            .map(|s| Arc::new(s) as _),
        "az" | "abfs" | "abfss" => MicrosoftAzureBuilder::from_env()
            .with_url(url.as_str())
            .with_retry(options.retry())
            .build()
            .map(|s| Arc::new(s) as _),
        "http" | "https" => HttpBuilder::new()
            .with_url(&base)
            .with_retry(options.retry())
            .with_client_options(options.client().with_allow_http(true))
            .build()
            .map(|s| Arc::new(s) as _),
        other => {
            return Err(DataFusionError::Configuration(format!(
                "no object store for '{other}://' URLs; known: {}",
                STORE_SCHEMES.join(", ")
            )));
        }
    };
    made.map_err(|e| {
        // The builders' messages name configuration keys, never their values.
        DataFusionError::Configuration(format!("cannot reach {base}: {e}"))
    })
}

/// An S3 store's settings: the `AWS_*` variables, then what the profile's files add, unsigned
/// when no credentials are found anywhere.
fn s3_builder(base: &str, options: &StoreOptions) -> AmazonS3Builder {
    // The timeouts first, so that the environment's client settings override them.
    let mut builder = AmazonS3Builder::new()
        .with_client_options(options.client())
        .with_retry(options.retry());
    let environment: HashMap<String, String> = std::env::vars()
        .filter(|(key, value)| key.starts_with("AWS_") && !value.is_empty())
        .collect();
    for (key, value) in &environment {
        if let Ok(config_key) = key.to_ascii_lowercase().parse::<AmazonS3ConfigKey>() {
            builder = builder.with_config(config_key, value);
        }
    }
    let env = |key: &str| environment.get(key).map(String::as_str);
    let profile = AwsProfile::load(env("AWS_PROFILE").unwrap_or("default"));
    let mut has_credentials = [
        "AWS_ACCESS_KEY_ID",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    ]
    .iter()
    .any(|key| env(key).is_some());
    if !has_credentials {
        if let (Some(id), Some(secret)) = (
            profile.get("aws_access_key_id"),
            profile.get("aws_secret_access_key"),
        ) {
            builder = builder
                .with_config(AmazonS3ConfigKey::AccessKeyId, id)
                .with_config(AmazonS3ConfigKey::SecretAccessKey, secret);
            if let Some(token) = profile.get("aws_session_token") {
                builder = builder.with_config(AmazonS3ConfigKey::Token, token);
            }
            has_credentials = true;
        }
    }
    let unset = |keys: &[&str]| keys.iter().all(|key| env(key).is_none());
    if unset(&["AWS_REGION", "AWS_DEFAULT_REGION"]) {
        if let Some(region) = profile.get("region") {
            builder = builder.with_config(AmazonS3ConfigKey::Region, region);
        }
    }
    if unset(&["AWS_ENDPOINT", "AWS_ENDPOINT_URL"]) {
        if let Some(endpoint) = profile.get("endpoint_url") {
            builder = builder.with_config(AmazonS3ConfigKey::Endpoint, endpoint);
        }
    }
    // An endpoint the user wrote as http:// (a local MinIO, say) is meant to be reached so.
    let endpoint = builder.get_config_value(&AmazonS3ConfigKey::Endpoint);
    if endpoint.is_some_and(|e| e.starts_with("http://")) {
        builder = builder.with_allow_http(true);
    }
    if unset(&["AWS_SKIP_SIGNATURE"]) && !has_credentials {
        builder = builder.with_skip_signature(true);
    }
    // Last: the URL's bucket overrides AWS_BUCKET.
    builder.with_url(base)
}

/// The settings of one profile in the AWS shared files: `~/.aws/credentials` (or
/// `AWS_SHARED_CREDENTIALS_FILE`), whose sections are profile names, then `~/.aws/config` (or
/// `AWS_CONFIG_FILE`), whose sections are `profile NAME` and `default`.
#[derive(Default)]
struct AwsProfile(HashMap<String, String>);

impl fmt::Debug for AwsProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keys only: the values hold secrets.
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl AwsProfile {
    fn load(name: &str) -> AwsProfile {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default();
        let file = |variable: &str, default: &str| {
            std::env::var_os(variable)
                .map(PathBuf::from)
                .unwrap_or_else(|| home.join(".aws").join(default))
        };
        let mut profile = AwsProfile::default();
        let credentials = file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
        profile.read(&credentials, name);
        let section = if name == "default" {
            "default".to_owned()
        } else {
            format!("profile {name}")
        };
        profile.read(&file("AWS_CONFIG_FILE", "config"), &section);
        profile
    }

    /// Adds the keys of `section` of an INI file that are not set yet (a missing or unreadable
    /// file adds nothing).
    fn read(&mut self, path: &std::path::Path, section: &str) {
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        for (key, value) in ini_section(&text, section) {
            self.0.entry(key).or_insert(value);
        }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }
}

/// The `key = value` lines of `[section]` in an INI text (keys lower-cased; comments, blank
/// lines and nested settings skipped).
fn ini_section(text: &str, section: &str) -> Vec<(String, String)> {
    let mut inside = false;
    let mut found = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            inside = name.trim() == section;
            continue;
        }
        // An indented line continues a nested setting (`s3 =` followed by its keys).
        if inside && !line.starts_with([' ', '\t']) {
            if let Some((key, value)) = trimmed.split_once('=') {
                found.push((key.trim().to_ascii_lowercase(), value.trim().to_owned()));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_urls_are_told_from_paths() {
        assert!(is_store_url("s3://bucket/crawl/*.warc.gz"));
        assert!(is_store_url("HTTPS://data.commoncrawl.org/x.warc.gz"));
        assert!(is_store_url(
            "abfss://container@account.dfs.core.windows.net/x"
        ));
        assert!(!is_store_url("/data/crawl.parquet"));
        assert!(!is_store_url("file:///data/crawl.parquet"));
        assert!(!is_store_url("crawl.parquet"));
    }

    #[test]
    fn a_profile_is_read_from_its_section() {
        let text = "[default]\nregion = eu-west-1\n\n[profile lake]\n# comment\n\
                    aws_access_key_id = AKIA\nregion=us-east-2\ns3 =\n  max_concurrent_requests = 4\n";
        assert_eq!(
            ini_section(text, "profile lake"),
            [
                ("aws_access_key_id".to_owned(), "AKIA".to_owned()),
                ("region".to_owned(), "us-east-2".to_owned()),
                ("s3".to_owned(), String::new()),
            ]
        );
        assert_eq!(
            ini_section(text, "default"),
            [("region".to_owned(), "eu-west-1".to_owned())]
        );
    }

    #[test]
    fn an_unknown_scheme_is_an_error_listing_the_known_ones() {
        let url = Url::parse("ftp://host/x").unwrap();
        let error = store_for_url(&url, &StoreOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("no object store for 'ftp://' URLs; known: s3,"),
            "{error}"
        );
    }

    #[test]
    fn the_profile_debug_output_holds_no_values() {
        let mut profile = AwsProfile::default();
        profile
            .0
            .insert("aws_secret_access_key".into(), "SECRET".into());
        assert!(!format!("{profile:?}").contains("SECRET"));
    }
}
