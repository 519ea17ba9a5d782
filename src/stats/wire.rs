//! The wire format of declass's own count route (`POST /v1/count`): what `declass serve`
//! answers and what the remote count source's `declass` dialect asks (`stats::remote`),
//! apart from either so that each builds without the other.

use serde::{Deserialize, Serialize};

use crate::stats::CountRequest;

/// The wire format of declass's own count route (request).
#[derive(Debug, Serialize, Deserialize)]
pub struct BatchCountRequest {
    pub requests: Vec<CountRequest>,
}

/// The wire format of declass's own count route (response).
#[derive(Debug, Serialize, Deserialize)]
pub struct BatchCountResponse {
    /// The answering source's identity (index generation included).
    pub identity: String,
    pub docs: u64,
    pub counts: Vec<u64>,
}
