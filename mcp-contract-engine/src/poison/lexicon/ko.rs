//! Korean.

use super::Language;

pub(crate) static KO: Language = Language {
    code: "ko",
    name: "Korean",
    function_words: "",
    entries: &[],
};
