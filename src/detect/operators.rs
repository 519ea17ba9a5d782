//! Operators: what a sensitive term becomes in the output, chosen per category in config
//! (Presidio's "anonymizers"). Each is a pure function of the finding and the text, so
//! the sanitizer's renderer calls them without knowing which detector made the finding;
//! consistent pseudonyms need per-document state, kept in [`Pseudonyms`].

use std::collections::BTreeMap;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::{Finding, Proposal};
pub use crate::detect::config::Operator;
use crate::detect::config::OperatorsConfig;
use crate::error::{Error, Result};
use crate::text::tokenize::normalize;

/// The configured operators: one per category, a default for the rest.
#[derive(Debug, Clone)]
pub struct Operators {
    default: Operator,
    by_category: BTreeMap<String, Operator>,
    mask_char: char,
    mask_keep_last: usize,
    hash_key: Option<Vec<u8>>,
    hash_hex_chars: usize,
}

/// Where an operator error points: the configuration, by section name.
const CONFIG_SECTION: &str = "[detect.operators]";

impl Operators {
    /// Reads the operators from config. The hash key comes from `hash_key` or the
    /// environment variable `hash_key_env` names; configuring the hash operator without
    /// either is an error here, not at the first hashed term.
    pub fn from_config(config: &OperatorsConfig) -> Result<Operators> {
        let bad = |message: String| Error::Config {
            path: CONFIG_SECTION.into(),
            message,
        };
        let default = config.default;
        let mut by_category = BTreeMap::new();
        for rule in &config.rules {
            by_category.insert(rule.category.clone(), rule.operator);
        }
        let hash_key = if !config.hash_key.is_empty() {
            Some(config.hash_key.as_bytes().to_vec())
        } else if config.hash_key_env.is_empty() {
            None
        } else {
            std::env::var(&config.hash_key_env)
                .ok()
                .filter(|k| !k.is_empty())
                .map(String::into_bytes)
        };
        let uses_hash =
            default == Operator::Hash || by_category.values().any(|o| *o == Operator::Hash);
        if uses_hash && hash_key.is_none() {
            return Err(bad(format!(
                "the hash operator needs a key: set hash_key or the environment variable {}",
                if config.hash_key_env.is_empty() {
                    "named by hash_key_env"
                } else {
                    &config.hash_key_env
                }
            )));
        }
        Ok(Operators {
            default,
            by_category,
            mask_char: config.mask_char,
            mask_keep_last: config.mask_keep_last,
            hash_key,
            hash_hex_chars: config.hash_hex_chars,
        })
    }

    pub fn operator_for(&self, category: &str) -> Operator {
        self.by_category
            .get(category)
            .copied()
            .unwrap_or(self.default)
    }

    /// The replacement text for `finding` in `text` (byte offsets of the finding).
    pub fn render(&self, finding: &Finding, text: &str, pseudonyms: &mut Pseudonyms) -> String {
        let span = &text[finding.start..finding.end];
        match self.operator_for(&finding.category) {
            Operator::Remove => String::new(),
            Operator::Generalize => generalize(finding),
            Operator::Mask => mask(span, self.mask_char, self.mask_keep_last),
            Operator::Pseudonym => pseudonyms.label(finding, text),
            // from_config refuses a hash operator without a key, so the key is present.
            Operator::Hash => match &self.hash_key {
                Some(key) => keyed_hash(span, key, self.hash_hex_chars),
                None => String::new(),
            },
        }
    }
}

/// The detector's proposal: its label, or nothing when it proposes removal.
pub fn generalize(finding: &Finding) -> String {
    match &finding.proposal {
        Proposal::Generalize(label) => label.clone(),
        Proposal::Remove => String::new(),
    }
}

/// Every character but whitespace and the last `keep_last` overwritten by `mask_char`.
pub fn mask(span: &str, mask_char: char, keep_last: usize) -> String {
    let total = span.chars().filter(|c| !c.is_whitespace()).count();
    let mut seen = 0;
    span.chars()
        .map(|c| {
            if c.is_whitespace() {
                return c;
            }
            seen += 1;
            if seen > total.saturating_sub(keep_last) {
                c
            } else {
                mask_char
            }
        })
        .collect()
}

/// HMAC-SHA256 of the normalized span under `key`, the first `hex_chars` hex digits:
/// "Caan" and "CAAN" hash alike.
pub fn keyed_hash(span: &str, key: &[u8], hex_chars: usize) -> String {
    // HMAC accepts keys of any length, so this cannot fail.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key) else {
        return String::new();
    };
    mac.update(normalize(span).as_bytes());
    let digest = mac.finalize().into_bytes();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex.chars().take(hex_chars.max(1)).collect()
}

/// The key sizes AES takes, in bytes (128, 192 and 256 bits).
const AES_KEY_BYTES: [usize; 3] = [16, 24, 32];

/// Presidio's `encrypt` operator, readable by its `decrypt`: AES-CBC with PKCS#7 padding
/// under `key` (16, 24 or 32 bytes), the 16-byte IV in front of the ciphertext, URL-safe
/// base64. Presidio draws the IV at random; here it is the first 16 bytes of
/// HMAC-SHA256(key, text), a synthetic IV, so the same text and key give the same output
/// on every run (as the keyed hash does: equal texts stay linkable under one key, and
/// nothing is learned without it).
pub fn encrypt(key: &[u8], text: &str) -> Result<String> {
    use aes::cipher::{BlockModeEncrypt, KeyIvInit, block_padding::Pkcs7};
    use base64::Engine;
    check_aes_key(key)?;
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key) else {
        return Err(bad_key());
    };
    mac.update(text.as_bytes());
    let digest = mac.finalize().into_bytes();
    let iv = &digest[..16];
    let ciphertext = match key.len() {
        16 => cbc::Encryptor::<aes::Aes128>::new_from_slices(key, iv)
            .map(|c| c.encrypt_padded_vec::<Pkcs7>(text.as_bytes())),
        24 => cbc::Encryptor::<aes::Aes192>::new_from_slices(key, iv)
            .map(|c| c.encrypt_padded_vec::<Pkcs7>(text.as_bytes())),
        _ => cbc::Encryptor::<aes::Aes256>::new_from_slices(key, iv)
            .map(|c| c.encrypt_padded_vec::<Pkcs7>(text.as_bytes())),
    }
    .map_err(|_| bad_key())?;
    let mut out = iv.to_vec();
    out.extend_from_slice(&ciphertext);
    Ok(base64::engine::general_purpose::URL_SAFE.encode(out))
}

/// Presidio's `decrypt` operator: the inverse of [`encrypt`] and of Presidio's own
/// `encrypt` (whatever IV it drew). Base64 in either alphabet, as Python's
/// `urlsafe_b64decode` reads it.
pub fn decrypt(key: &[u8], text: &str) -> Result<String> {
    use aes::cipher::{BlockModeDecrypt, KeyIvInit, block_padding::Pkcs7};
    use base64::Engine;
    check_aes_key(key)?;
    let not_ours = |message: &str| Error::Parameter {
        what: "decrypt".into(),
        message: message.into(),
    };
    let standard: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(standard)
        .map_err(|_| not_ours("the text is not base64"))?;
    if bytes.len() < 32 || bytes.len() % 16 != 0 {
        return Err(not_ours("the text is not an IV and AES blocks"));
    }
    let (iv, ciphertext) = bytes.split_at(16);
    let plain = match key.len() {
        16 => cbc::Decryptor::<aes::Aes128>::new_from_slices(key, iv)
            .map(|c| c.decrypt_padded_vec::<Pkcs7>(ciphertext)),
        24 => cbc::Decryptor::<aes::Aes192>::new_from_slices(key, iv)
            .map(|c| c.decrypt_padded_vec::<Pkcs7>(ciphertext)),
        _ => cbc::Decryptor::<aes::Aes256>::new_from_slices(key, iv)
            .map(|c| c.decrypt_padded_vec::<Pkcs7>(ciphertext)),
    }
    .map_err(|_| bad_key())?
    .map_err(|_| not_ours("wrong key, or not a text encrypted with one"))?;
    String::from_utf8(plain).map_err(|_| not_ours("wrong key, or not a text encrypted with one"))
}

fn check_aes_key(key: &[u8]) -> Result<()> {
    if AES_KEY_BYTES.contains(&key.len()) {
        Ok(())
    } else {
        Err(bad_key())
    }
}

fn bad_key() -> Error {
    Error::Parameter {
        what: "key".into(),
        message: "must be of length 128, 192 or 256 bits".into(),
    }
}

/// Consistent pseudonyms within one document: the n-th distinct entity of a category
/// becomes "CATEGORY n". Create one per document.
#[derive(Debug, Default)]
pub struct Pseudonyms {
    assigned: BTreeMap<(String, String), usize>,
    counts: BTreeMap<String, usize>,
}

impl Pseudonyms {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn label(&mut self, finding: &Finding, text: &str) -> String {
        let key = (finding.category.clone(), entity_key(finding, text));
        let next = self.counts.get(&finding.category).copied().unwrap_or(0) + 1;
        let number = *self.assigned.entry(key).or_insert_with(|| {
            self.counts.insert(finding.category.clone(), next);
            next
        });
        format!("{} {number}", finding.category.to_uppercase())
    }
}

/// Which entity a finding refers to: all mentions of one protected person are one entity
/// (their reason names the person); otherwise mentions with the same normalized text.
pub fn entity_key(finding: &Finding, text: &str) -> String {
    if finding.detector == super::protect::NAME {
        return super::protect::person_key(&finding.reason).to_string();
    }
    normalize(&text[finding.start..finding.end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::config::OperatorRule;

    fn finding(text: &str, needle: &str, from: usize, category: &str, detector: &str) -> Finding {
        let start = from + text[from..].find(needle).expect("needle");
        Finding {
            start,
            end: start + needle.len(),
            category: category.into(),
            detector: detector.into(),
            proposal: Proposal::Generalize(category.into()),
            confidence: 1.0,
            reason: "r".into(),
        }
    }

    fn config() -> OperatorsConfig {
        crate::Config::builtin().expect("config").detect.operators
    }

    #[test]
    fn mask_keeps_whitespace_and_last_chars() {
        assert_eq!(mask("4111 1111 1111 1111", '*', 4), "**** **** **** 1111");
        assert_eq!(mask("Caan", '#', 0), "####");
        assert_eq!(mask("ab", '*', 5), "ab");
    }

    #[test]
    fn hash_is_keyed_and_case_insensitive() {
        let a = keyed_hash("Caan", b"k1", 16);
        assert_eq!(a.len(), 16);
        assert_eq!(a, keyed_hash("CAAN", b"k1", 16));
        assert_ne!(a, keyed_hash("Caan", b"k2", 16));
        // RFC 4231 test case 2: HMAC-SHA256("Jefe", "what do ya want for nothing?").
        assert_eq!(
            keyed_hash("what do ya want for nothing?", b"Jefe", 64),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn hash_without_key_is_an_error() {
        let mut cfg = config();
        cfg.default = Operator::Hash;
        cfg.hash_key_env = "DECLASS_TEST_KEY_THAT_IS_NEVER_SET".into();
        let err = Operators::from_config(&cfg).expect_err("no key");
        assert!(
            err.to_string()
                .contains("DECLASS_TEST_KEY_THAT_IS_NEVER_SET"),
            "{err}"
        );
        cfg.hash_key = "secret".into();
        assert!(Operators::from_config(&cfg).is_ok());
    }

    #[test]
    fn pseudonyms_are_consistent_per_entity() {
        let text = "Ann met Bob. Then ann met Carl.";
        let mut cfg = config();
        cfg.rules = vec![OperatorRule {
            category: "person".into(),
            operator: Operator::Pseudonym,
        }];
        let operators = Operators::from_config(&cfg).expect("ok");
        let mut pseudonyms = Pseudonyms::new();
        let rendered: Vec<String> = [("Ann", 0), ("Bob", 0), ("ann", 0), ("Carl", 0)]
            .iter()
            .map(|(n, from)| {
                operators.render(
                    &finding(text, n, *from, "person", "ner"),
                    text,
                    &mut pseudonyms,
                )
            })
            .collect();
        assert_eq!(
            rendered,
            vec!["PERSON 1", "PERSON 2", "PERSON 1", "PERSON 3"]
        );
        // Other categories fall back to the default operator (generalize).
        let place = finding(text, "Bob", 0, "place", "ner");
        assert_eq!(operators.render(&place, text, &mut pseudonyms), "place");
    }

    #[test]
    fn protected_mentions_share_one_pseudonym() {
        let text = "Scott Caan. Caan.";
        let mut a = finding(text, "Scott Caan", 0, "person", "protect");
        let mut b = finding(text, "Caan", 5, "person", "protect");
        a.reason = super::super::protect::protected_reason(0);
        b.reason = super::super::protect::protected_reason(0);
        let mut pseudonyms = Pseudonyms::new();
        assert_eq!(pseudonyms.label(&a, text), pseudonyms.label(&b, text));
    }

    /// Presidio's own end-to-end test: this text, encrypted by Presidio under this key,
    /// decrypts to "text_for_encryption".
    #[test]
    fn decrypts_what_presidio_encrypted() {
        let key = b"1111111111111111";
        let presidio = "e6HnOMnIxbd4a8Qea44LshQDnjvxwzBIaAz+YqHNnMW2mC5r3AWoay8Spsoajyyy";
        assert_eq!(decrypt(key, presidio).unwrap(), "text_for_encryption");
    }

    #[test]
    fn encryption_round_trips_deterministically_under_each_key_size() {
        for key in [&b"1111111111111111"[..], &[7u8; 24][..], &[9u8; 32][..]] {
            let secret = encrypt(key, "Lorem Ipsum ünïcode").unwrap();
            assert_eq!(secret, encrypt(key, "Lorem Ipsum ünïcode").unwrap());
            assert_ne!(secret, encrypt(key, "Lorem Ipsum").unwrap());
            assert_eq!(decrypt(key, &secret).unwrap(), "Lorem Ipsum ünïcode");
        }
        // IV and two blocks, in URL-safe base64: 64 characters, as Presidio's.
        assert_eq!(
            encrypt(b"2222222222222222", "Software Engineer")
                .unwrap()
                .len(),
            64
        );
    }

    #[test]
    fn bad_keys_and_foreign_texts_are_errors() {
        let refused = |got: Result<String>| match got {
            Err(Error::Parameter { what, message }) => format!("{what}: {message}"),
            other => panic!("not a parameter error: {other:?}"),
        };
        let bad_key = "key: must be of length 128, 192 or 256 bits";
        assert_eq!(refused(encrypt(b"invalidkey", "x")), bad_key);
        assert_eq!(refused(decrypt(b"invalidkey", "x")), bad_key);
        let secret = encrypt(b"1111111111111111", "text").expect("encrypts");
        assert_eq!(
            refused(decrypt(b"2222222222222222", &secret)),
            "decrypt: wrong key, or not a text encrypted with one"
        );
        assert_eq!(
            refused(decrypt(b"1111111111111111", "not base64 at all!")),
            "decrypt: the text is not base64"
        );
        assert_eq!(
            refused(decrypt(b"1111111111111111", "")),
            "decrypt: the text is not an IV and AES blocks"
        );
    }
}
