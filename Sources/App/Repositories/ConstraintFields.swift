import Web

/// The request field behind each constraint of TIL's schema that a client can break, so the
/// answer to a violation names it: 409 "'username' is already taken.", 404 "'categoryID' is
/// not the id of any category." The repositories let PostgreSQL enforce uniqueness and
/// references (no check-then-insert race); `DatabaseErrorMiddleware` turns the violation's
/// constraint name into one of these answers.
///
/// A constraint missing here guards only values the server draws itself (random ids, identity
/// `seq` columns, token digests): its violation is TIL's bug, a logged 500, never an unnamed
/// 409. `ConstraintFieldTests` reads the live schema and fails on a unique or foreign-key
/// constraint that is neither listed here nor server-drawn.
enum ConstraintFields {
    /// What a reference points at: the field that holds it and the kind of item it names.
    struct Reference: Equatable {
        let field: String
        let item: String
    }

    /// Unique constraints and unique indexes, by name → the field whose value is taken.
    static let unique: [String: String] = [
        "users_username_key": "username",
        // Usernames unique ignoring case and normalisation form (`UniqueUsernamesIgnoringCase`).
        "users_username_lower": "username",
        // A passkey registered twice, to this user or another (`PasskeyRepository.insert`).
        "passkeys_credential_id_key": "credential",
        // An address already on another account, in any case (`accountMailSchema`, issue 21).
        "users_email_key": "email",
    ]

    /// Foreign keys, by name → the reference that points nowhere.
    static let references: [String: Reference] = [
        "acronyms_user_id_fkey": .user,
        "acronym_category_pivot_acronym_id_fkey": .acronym,
        "acronym_category_pivot_category_id_fkey": .category,
        "tokens_user_id_fkey": .user,
        "sessions_user_id_fkey": .user,
        "login_known_origins_user_id_fkey": .user,
        "tokens_session_id_fkey": .session,
        "refresh_tokens_session_id_fkey": .session,
        // OAuth (issue 18): a client or user removed while a grant, code or session is made.
        "oauth_clients_registered_by_fkey": .user,
        "sessions_client_id_fkey": .client,
        "oauth_grants_user_id_fkey": .user,
        "oauth_grants_client_id_fkey": .client,
        "oauth_codes_client_id_fkey": .client,
        "oauth_codes_user_id_fkey": .user,
        "oauth_codes_session_id_fkey": .session,
        // Device codes (RFC 8628): their client or the approving user removed meanwhile.
        "oauth_device_codes_client_id_fkey": .client,
        "oauth_device_codes_user_id_fkey": .user,
        "oauth_device_codes_session_id_fkey": .session,
        // Second factors (issue 20): the user removed while a factor or challenge is stored.
        "totp_credentials_user_id_fkey": .user,
        "recovery_codes_user_id_fkey": .user,
        "mfa_challenges_user_id_fkey": .user,
        // Passkeys (issue 20): their user removed during a registration or a ceremony.
        "passkeys_user_id_fkey": .user,
        "webauthn_challenges_user_id_fkey": .user,
        // Password resets (issue 21): the user removed meanwhile, or the reset an mfaToken names.
        "password_resets_user_id_fkey": .user,
        "password_reset_requests_user_id_fkey": .user,
        "mfa_challenges_password_reset_fkey": .passwordReset,
        // Email verification (issue 21): the user removed while a link or a send is stored.
        "email_verifications_user_id_fkey": .user,
        "email_sends_user_id_fkey": .user,
    ]

    /// The client's view of a violated constraint, or nil when it is not one a client can break.
    static func answer(uniqueViolationOf constraint: String?) -> Abort? {
        constraint.flatMap { unique[$0] }.map(Abort.taken)
    }

    static func answer(foreignKeyViolationOf constraint: String?) -> Abort? {
        constraint.flatMap { references[$0] }.map(Abort.unknown)
    }
}

extension ConstraintFields.Reference {
    static let user = Self(field: "userID", item: "user")
    static let acronym = Self(field: "acronymID", item: "acronym")
    static let category = Self(field: "categoryID", item: "category")
    static let session = Self(field: "sessionID", item: "session")
    static let client = Self(field: "client_id", item: "client")
    static let passwordReset = Self(field: "token", item: "password reset")
}

extension Abort {
    /// 409 naming the field whose value another row already holds.
    static func taken(_ field: String) -> Abort {
        Abort(.conflict, reason: "'\(field)' is already taken.")
    }

    /// 404 naming the field that refers to an item that does not exist.
    static func unknown(_ reference: ConstraintFields.Reference) -> Abort {
        Abort(.notFound, reason: "'\(reference.field)' is not the id of any \(reference.item).")
    }
}
