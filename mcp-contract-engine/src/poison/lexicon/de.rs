//! German.

use super::Language;

pub(crate) static DE: Language = Language {
    code: "de",
    name: "German",
    function_words: "",
    entries: &[],
};
