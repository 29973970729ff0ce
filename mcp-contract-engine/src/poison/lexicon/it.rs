//! Italian.

use super::Language;

pub(crate) static IT: Language = Language {
    code: "it",
    name: "Italian",
    function_words: "",
    entries: &[],
};
