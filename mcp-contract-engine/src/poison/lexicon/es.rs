//! Spanish.

use super::Language;

pub(crate) static ES: Language = Language {
    code: "es",
    name: "Spanish",
    function_words: "",
    entries: &[],
};
