import Postgres

extension TILMigrations {
    /// Indexes in each paged list's order, so that a page after a cursor is one index range
    /// scan of `limit + 1` entries, however deep into the list it is (see `KeysetSQL`). Each
    /// replaces a single-column index it makes redundant (its leading column serves the same
    /// lookups: search by `short`, a user's or a category's rows, foreign-key cascades).
    static let keysetIndexes = Migration(
        name: "KeysetIndexes",
        prepare: [
            "CREATE INDEX acronyms_short_seq ON acronyms (short, seq)",
            "CREATE INDEX acronyms_user_id_seq ON acronyms (user_id, seq)",
            "CREATE INDEX acronym_category_pivot_category_seq ON acronym_category_pivot (category_id, seq)",
            "CREATE INDEX acronym_category_pivot_acronym_seq ON acronym_category_pivot (acronym_id, seq)",
            "DROP INDEX acronyms_short",
            "DROP INDEX acronyms_user_id",
            "DROP INDEX acronym_category_pivot_category",
        ],
        revert: [
            "CREATE INDEX acronyms_short ON acronyms (short)",
            "CREATE INDEX acronyms_user_id ON acronyms (user_id)",
            "CREATE INDEX acronym_category_pivot_category ON acronym_category_pivot (category_id)",
            "DROP INDEX acronyms_short_seq",
            "DROP INDEX acronyms_user_id_seq",
            "DROP INDEX acronym_category_pivot_category_seq",
            "DROP INDEX acronym_category_pivot_acronym_seq",
        ])
}
