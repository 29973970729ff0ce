//! Japanese.

use super::Language;

pub(crate) static JA: Language = Language {
    code: "ja",
    name: "Japanese",
    function_words: "",
    entries: &[],
};
