//! Portuguese.

use super::Language;

pub(crate) static PT: Language = Language {
    code: "pt",
    name: "Portuguese",
    function_words: "",
    entries: &[],
};
