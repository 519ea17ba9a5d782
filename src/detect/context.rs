//! Context words around a pattern match, in the manner of Presidio's context enhancer
//! (`LemmaContextAwareEnhancer`): a weak identifier format (nine bare digits) is a
//! passport number when "passport" is among the few words before it, and a bank account
//! when "account" is. Words are compared lowercase; a phrase ("national insurance")
//! matches consecutive words; a plural "s" or "es" on the text's word is ignored, which
//! stands in for Presidio's lemmas on the nouns these lists hold.

/// The context words of one pattern, each split into its lowercase words.
#[derive(Debug, Clone, Default)]
pub struct ContextWords {
    phrases: Vec<Vec<String>>,
}

impl ContextWords {
    /// Context entries as config writes them ("passport#", "social security").
    pub fn new(entries: &[String]) -> Self {
        let phrases = entries
            .iter()
            .map(|entry| words_of(entry).map(str::to_lowercase).collect::<Vec<_>>())
            .filter(|phrase| !phrase.is_empty())
            .collect();
        ContextWords { phrases }
    }

    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    /// Whether one of the phrases occurs among `window`'s words ([`Window::around`]).
    pub fn found_in(&self, window: &Window) -> bool {
        self.phrases.iter().any(|phrase| {
            [&window.before, &window.after]
                .iter()
                .any(|side| holds_phrase(side, phrase))
        })
    }

    /// The first of the phrases, in their order, that occurs among `window`'s words or
    /// among `words` (a caller's context words): the word Presidio reports as
    /// `supportive_context_word`.
    pub fn supporting(&self, window: &Window, words: &[String]) -> Option<String> {
        let given: Vec<Vec<String>> = words
            .iter()
            .map(|entry| words_of(entry).map(str::to_lowercase).collect())
            .collect();
        self.phrases
            .iter()
            .find(|phrase| {
                [&window.before, &window.after]
                    .into_iter()
                    .chain(&given)
                    .any(|side| holds_phrase(side, phrase))
            })
            .map(|phrase| phrase.join(" "))
    }

    /// Whether one of the phrases is among `words` (a caller's context words, each entry
    /// one word or phrase), compared as words of the text are.
    pub fn found_among(&self, words: &[String]) -> bool {
        words.iter().any(|entry| {
            let entry: Vec<String> = words_of(entry).map(str::to_lowercase).collect();
            self.phrases
                .iter()
                .any(|phrase| holds_phrase(&entry, phrase))
        })
    }
}

/// The words around a match on its line: up to `before` alphanumeric tokens before it and
/// `after` after it (numbers count towards the limits, as Presidio's token windows do),
/// lowercase, in text order.
#[derive(Debug, Clone, Default)]
pub struct Window {
    before: Vec<String>,
    after: Vec<String>,
}

impl Window {
    pub fn around(text: &str, start: usize, end: usize, before: usize, after: usize) -> Self {
        let mut words_before = Vec::with_capacity(before);
        let mut word_end: Option<usize> = None;
        let mut line_start = 0;
        for (i, c) in text[..start].char_indices().rev() {
            if words_before.len() == before {
                break;
            }
            if c == '\n' {
                line_start = i + 1;
                break;
            }
            if c.is_alphanumeric() {
                word_end.get_or_insert(i + c.len_utf8());
            } else if let Some(e) = word_end.take() {
                words_before.push(text[i + c.len_utf8()..e].to_lowercase());
            }
        }
        if let Some(e) = word_end
            && words_before.len() < before
        {
            words_before.push(text[line_start..e].to_lowercase());
        }
        words_before.reverse();
        let line = text[end..].split('\n').next().unwrap_or("");
        let words_after = words_of(line).take(after).map(str::to_lowercase).collect();
        Window {
            before: words_before,
            after: words_after,
        }
    }
}

fn words_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Whether `phrase` occurs as consecutive words of `words`.
fn holds_phrase(words: &[String], phrase: &[String]) -> bool {
    words.windows(phrase.len()).any(|run| {
        run.iter()
            .zip(phrase)
            .all(|(word, wanted)| same_word(word, wanted))
    })
}

fn same_word(word: &str, wanted: &str) -> bool {
    word == wanted
        || word
            .strip_suffix('s')
            .is_some_and(|w| w == wanted || w.strip_suffix('e') == Some(wanted))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(entries: &[&str], text: &str, target: &str) -> bool {
        let start = text.find(target).expect("target in text");
        let window = Window::around(text, start, start + target.len(), 5, 2);
        let entries: Vec<String> = entries.iter().map(|e| e.to_string()).collect();
        ContextWords::new(&entries).found_in(&window)
    }

    #[test]
    fn words_before_and_after_on_the_line() {
        assert!(found(
            &["passport#"],
            "Her Passport no. is 912803456.",
            "912803456"
        ));
        assert!(found(
            &["account"],
            "Accounts: 12345678 (closed)",
            "12345678"
        ));
        assert!(found(&["license"], "AC432223, her license.", "AC432223"));
        // Three words after: out of the window.
        assert!(!found(&["license"], "AC432223 is her license.", "AC432223"));
        // Six tokens before: out of the window.
        assert!(!found(
            &["passport"],
            "passport a b c d e 912803456",
            "912803456"
        ));
        // Another line.
        assert!(!found(&["passport"], "passport\n912803456", "912803456"));
    }

    #[test]
    fn phrases_match_consecutive_words_and_plurals() {
        assert!(found(
            &["national insurance"],
            "my National Insurance number AB 12 34 56 C",
            "AB 12"
        ));
        assert!(!found(
            &["national insurance"],
            "national health insurance AB 12 34 56 C",
            "AB 12"
        ));
        assert!(found(&["address"], "the addresses 10.0.0.1", "10.0.0.1"));
        assert!(!found(&["account"], "accountant 12345678", "12345678"));
    }

    #[test]
    fn multibyte_text_around_the_match() {
        assert!(found(&["numéro"], "le numéro: 912803456", "912803456"));
        assert!(!found(&["passport"], "", ""));
    }

    #[test]
    fn a_callers_words_are_compared_as_the_texts_are() {
        let context = ContextWords::new(&["passport".into(), "bank account".into()]);
        let words = |entries: &[&str]| entries.iter().map(|e| e.to_string()).collect::<Vec<_>>();
        assert!(context.found_among(&words(&["Passports"])));
        assert!(context.found_among(&words(&["savings", "the bank account"])));
        assert!(
            !context.found_among(&words(&["bank", "account"])),
            "a phrase is one entry"
        );
        assert!(!context.found_among(&words(&["passage"])));
        assert!(!context.found_among(&[]));
    }
}
