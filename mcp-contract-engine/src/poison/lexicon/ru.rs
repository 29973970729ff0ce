//! Russian.

use super::Language;

pub(crate) static RU: Language = Language {
    code: "ru",
    name: "Russian",
    function_words: "",
    entries: &[],
};
