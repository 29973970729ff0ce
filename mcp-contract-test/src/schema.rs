//! JSON Schema in canonical form: references resolved, spellings unified. (Stub: being written.)
