extension OpenAPIDocument {
    /// The JSON bodies: what the server answers (closed objects: no other field is ever sent) and what it reads (unknown fields ignored).
    static let schemas = #"""
{
  "components": {
    "schemas": {
      "AnyJSONWithoutNUL": {
        "description": "Any JSON value without a NUL (U+0000) in any string or key: the server refuses a body holding one anywhere (400), even in a field it ignores.",
        "anyOf": [
          {"type": "string", "pattern": "^[^\\u0000]*$"},
          {"type": ["number", "boolean", "null"]},
          {"type": "array", "items": {"$ref": "#/components/schemas/AnyJSONWithoutNUL"}},
          {
            "type": "object",
            "propertyNames": {"pattern": "^[^\\u0000]*$"},
            "additionalProperties": {"$ref": "#/components/schemas/AnyJSONWithoutNUL"}
          }
        ]
      },
      "Error": {
        "type": "object",
        "properties": {
          "error": {"type": "boolean", "enum": [true]},
          "reason": {
            "type": "string",
            "description": "What went wrong, for a person to read: names the field, parameter or rule."
          }
        },
        "required": ["error", "reason"],
        "additionalProperties": false,
        "description": "Every error answer (4xx and 5xx).",
        "examples": [{"error": true, "reason": "'short' must not be empty."}]
      },
      "Status": {
        "type": "object",
        "properties": {"status": {"type": "string", "enum": ["ok", "ready"]}},
        "required": ["status"],
        "additionalProperties": false,
        "examples": [{"status": "ok"}]
      },
      "UserReference": {
        "type": "object",
        "properties": {"id": {"type": "string", "format": "uuid"}},
        "required": ["id"],
        "additionalProperties": false,
        "description": "How an acronym or a token points at its user, as in the Vapor book."
      },
      "User": {
        "type": "object",
        "properties": {"id": {"type": "string", "format": "uuid"}, "name": {"type": "string"}, "username": {"type": "string"}},
        "required": ["id", "name", "username"],
        "additionalProperties": false,
        "description": "A user as clients see it: never a password or a hash.",
        "examples": [{"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B", "name": "Tim Condon", "username": "timc"}]
      },
      "Acronym": {
        "type": "object",
        "properties": {
          "id": {"type": "string", "format": "uuid"},
          "short": {"type": "string"},
          "long": {"type": "string"},
          "user": {"$ref": "#/components/schemas/UserReference"}
        },
        "required": ["id", "short", "long", "user"],
        "additionalProperties": false,
        "description": "The book's JSON shape; `user.id` is the owner.",
        "examples": [
          {
            "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "short": "OMG",
            "long": "Oh My God",
            "user": {"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B"}
          }
        ]
      },
      "Category": {
        "type": "object",
        "properties": {"id": {"type": "string", "format": "uuid"}, "name": {"type": "string"}},
        "required": ["id", "name"],
        "additionalProperties": false,
        "examples": [{"id": "7C9E6679-7425-40DE-944B-E07FC1F90AE7", "name": "Teenager"}]
      },
      "Scope": {
        "type": "string",
        "enum": ["acronyms:write", "categories:write", "users:write", "account"],
        "description": "What a bearer token may do. `acronyms:write`: create, update, delete acronyms and (un)link categories; `categories:write`: create categories; `users:write`: create users; `account`: sessions, logout everywhere, password."
      },
      "Token": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "format": "uuid",
            "description": "The session (login) this pair belongs to; a refresh keeps it."
          },
          "value": {"type": "string", "description": "The access token: `Authorization: Bearer <value>`."},
          "user": {"$ref": "#/components/schemas/UserReference"},
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "description": "When the access token expires (ISO 8601, UTC, whole seconds)."
          },
          "refreshToken": {"type": "string", "description": "Redeemed once at `POST /api/users/refresh` for a new pair."},
          "refreshExpiresAt": {"type": "string", "format": "date-time", "description": "When the session ends unless refreshed before."},
          "scopes": {"type": "array", "items": {"$ref": "#/components/schemas/Scope"}},
          "tokenType": {"type": "string", "enum": ["Bearer"]}
        },
        "required": ["id", "value", "user", "expiresAt", "refreshToken", "refreshExpiresAt", "scopes", "tokenType"],
        "additionalProperties": false,
        "description": "The answer to a login or a refresh. Token values are shown once, here; the server keeps only their SHA-256 digests.",
        "examples": [
          {
            "id": "0F8FAD5B-D9CB-469F-A165-70867728950E",
            "value": "q0Qe5sXo3oLq2J7hZ3Q9uNw1Jr2kB8vD4yT6mA0cE5s",
            "user": {"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B"},
            "expiresAt": "2026-11-23T13:00:00Z",
            "refreshToken": "Zk3vQ8pL1sN6tR0wY4uI7oP2aS5dF9gH3jK6lZ8xC1v",
            "refreshExpiresAt": "2026-12-23T12:00:00Z",
            "scopes": ["acronyms:write", "categories:write", "users:write", "account"],
            "tokenType": "Bearer"
          }
        ]
      },
      "Session": {
        "type": "object",
        "properties": {
          "id": {"type": "string", "format": "uuid"},
          "createdAt": {"type": "string", "format": "date-time"},
          "lastUsedAt": {"type": "string", "format": "date-time"},
          "expiresAt": {"type": "string", "format": "date-time", "description": "When this login's newest access token expires."},
          "refreshExpiresAt": {"type": "string", "format": "date-time", "description": "When this login ends unless refreshed before."},
          "userAgent": {
            "type": "string",
            "description": "The login's `User-Agent` (first 256 characters); absent when it sent none."
          },
          "scopes": {"type": "array", "items": {"$ref": "#/components/schemas/Scope"}},
          "current": {"type": "boolean", "description": "True for the session whose token made this request."}
        },
        "required": ["id", "createdAt", "lastUsedAt", "expiresAt", "refreshExpiresAt", "scopes", "current"],
        "additionalProperties": false,
        "description": "One live login of the caller. Never a token: a session is ended by its id.",
        "examples": [
          {
            "id": "0F8FAD5B-D9CB-469F-A165-70867728950E",
            "createdAt": "2026-11-23T12:00:00Z",
            "lastUsedAt": "2026-11-23T12:30:00Z",
            "expiresAt": "2026-11-23T13:00:00Z",
            "refreshExpiresAt": "2026-12-23T12:00:00Z",
            "userAgent": "til/1.0",
            "scopes": ["acronyms:write", "categories:write", "users:write", "account"],
            "current": true
          }
        ]
      },
      "CreateUser": {
        "type": "object",
        "required": ["name", "username", "password"],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "x-max-utf8-bytes": 128,
            "pattern": "\#(visibleTextPattern)",
            "description": "1–128 bytes of UTF-8, not blank, no control characters.",
            "examples": ["Tim Condon"]
          },
          "username": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
            "x-max-utf8-bytes": 64,
            "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f:]*[^\\u0000-\\u0020\\u007f-\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000:][^\\u0000-\\u001f\\u007f-\\u009f:]*$",
            "description": "1–64 bytes of UTF-8 (in NFC), not blank, no control characters, no `:`; unique ignoring case (409).",
            "examples": ["timc"]
          },
          "password": {
            "type": "string",
            "minLength": 2,
            "maxLength": 72,
            "x-min-utf8-bytes": 8,
            "x-max-utf8-bytes": 72,
            "pattern": "^[^\\u0000]*$",
            "description": "8–72 bytes of UTF-8 (bcrypt reads 72), no NUL.",
            "examples": ["s3cret-pass"]
          }
        },
        "description": "Unknown fields are ignored.",
        "propertyNames": {"pattern": "^[^\\u0000]*$"},
        "additionalProperties": {"$ref": "#/components/schemas/AnyJSONWithoutNUL"}
      },
      "AcronymInput": {
        "type": "object",
        "required": ["short", "long"],
        "properties": {
          "short": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
            "x-max-utf8-bytes": 64,
            "pattern": "\#(visibleTextPattern)",
            "description": "1–64 bytes of UTF-8, not blank, no control characters.",
            "examples": ["OMG"]
          },
          "long": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512,
            "x-max-utf8-bytes": 512,
            "pattern": "\#(visibleTextPattern)",
            "description": "1–512 bytes of UTF-8, not blank, no control characters.",
            "examples": ["Oh My God"]
          }
        },
        "description": "Unknown fields are ignored.",
        "propertyNames": {"pattern": "^[^\\u0000]*$"},
        "additionalProperties": {"$ref": "#/components/schemas/AnyJSONWithoutNUL"}
      },
      "CategoryInput": {
        "type": "object",
        "required": ["name"],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "x-max-utf8-bytes": 128,
            "pattern": "\#(visibleTextPattern)",
            "description": "1–128 bytes of UTF-8, not blank, no control characters.",
            "examples": ["Teenager"]
          }
        },
        "description": "Unknown fields are ignored.",
        "propertyNames": {"pattern": "^[^\\u0000]*$"},
        "additionalProperties": {"$ref": "#/components/schemas/AnyJSONWithoutNUL"}
      },
      "RefreshRequest": {
        "type": "object",
        "required": ["refreshToken"],
        "properties": {
          "refreshToken": {
            "type": "string",
            "pattern": "^[^\\u0000]*$",
            "description": "A refresh token from a login or refresh answer. Empty, over 512 bytes or not redeemable: 401 `invalid_token`."
          }
        },
        "description": "Unknown fields are ignored.",
        "propertyNames": {"pattern": "^[^\\u0000]*$"},
        "additionalProperties": {"$ref": "#/components/schemas/AnyJSONWithoutNUL"}
      },
      "PasswordChange": {
        "type": "object",
        "required": ["currentPassword", "newPassword"],
        "properties": {
          "currentPassword": {
            "type": "string",
            "pattern": "^[^\\u0000]*$",
            "description": "Wrong: 403 (and it counts toward the login throttle).",
            "examples": ["old-secret-1"]
          },
          "newPassword": {
            "type": "string",
            "minLength": 2,
            "maxLength": 72,
            "x-min-utf8-bytes": 8,
            "x-max-utf8-bytes": 72,
            "pattern": "^[^\\u0000]*$",
            "description": "8–72 bytes of UTF-8, no NUL.",
            "examples": ["new-secret-2"]
          }
        },
        "description": "Unknown fields are ignored.",
        "propertyNames": {"pattern": "^[^\\u0000]*$"},
        "additionalProperties": {"$ref": "#/components/schemas/AnyJSONWithoutNUL"}
      }
    }
  }
}
"""#

    /// Text with something visible in it and no control characters (names, acronyms), as a
    /// JSON-escaped pattern: one non-blank character among any others that are not controls.
    private static let visibleTextPattern = #"^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\u0000-\\u0020\\u007f-\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000][^\\u0000-\\u001f\\u007f-\\u009f]*$"#
}
