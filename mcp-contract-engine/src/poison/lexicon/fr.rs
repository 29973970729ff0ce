//! French.

use super::Language;

pub(crate) static FR: Language = Language {
    code: "fr",
    name: "French",
    function_words: "",
    entries: &[],
};
