//! Chinese.

use super::Language;

pub(crate) static ZH: Language = Language {
    code: "zh",
    name: "Chinese",
    function_words: "",
    entries: &[],
};
