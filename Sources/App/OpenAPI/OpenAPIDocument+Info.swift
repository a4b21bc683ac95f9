extension OpenAPIDocument {
    /// The document's head: what the API is, its security schemes, and the parameters, headers and answers (errors,
    /// lists, single resources) that operations share.
    static let info = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "TIL — Today I Learned",
    "version": "1.0.0",
    "description": "The Vapor book's TIL API (users, acronyms, categories) with bearer tokens that expire, refresh and carry scopes.\n\n**Errors** are JSON `{\"error\": true, \"reason\": \"…\"}` with a 4xx or 5xx status. Beyond the statuses listed per operation, any request may get 413 (body over 1 MiB), 414 (request line over 8 KiB) or 431 (header section over 16 KiB or over 100 fields), and 405 with `Allow` for a method a path does not have.\n\n**Lists** answer the whole JSON array by default. With `?limit=` (1–1000) they answer one page in the list's stable order and, while more rows follow, a `Link: <…>; rel=\"next\"` header (RFC 8288) whose URL gives the next page (keyset pagination: pages stay consistent while rows are added).\n\n**Text fields** are limited in bytes of UTF-8 (`x-max-utf8-bytes`, `x-min-utf8-bytes`), which JSON Schema cannot say: `maxLength` counts characters, so it is the same number, a bound that multi-byte text reaches sooner.\n\n**Authentication**: log in with HTTP Basic at `POST /api/users/login`, send `value` as `Authorization: Bearer …`, refresh with `refreshToken` before `expiresAt`. Each bearer operation lists the scope it needs."
  },
  "servers": [{"url": "/", "description": "This server."}],
  "tags": [
    {"name": "Sessions"},
    {"name": "Account"},
    {"name": "Users"},
    {"name": "Acronyms"},
    {"name": "Categories"},
    {"name": "Health"}
  ],
  "components": {
    "securitySchemes": {
      "basicAuth": {"type": "http", "scheme": "basic", "description": "Username and password, only at `POST /api/users/login`."},
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "An access token from a login or refresh (opaque, 43 characters of base64url). The security requirement's list names the scope an operation needs (OpenAPI 3.1 role names): `acronyms:write`, `categories:write`, `users:write` or `account`; none listed, any valid token."
      }
    },
    "parameters": {
      "limit": {
        "name": "limit",
        "in": "query",
        "required": false,
        "schema": {"type": "integer", "minimum": 1, "maximum": 1000},
        "description": "Answer one page of at most this many rows (a whole number, 1–1000), in the list's order, with a `Link: rel=\"next\"` header while more follow. Without `limit` and `cursor`: the whole list. Anything else: 400.",
        "example": 100
      },
      "cursor": {
        "name": "cursor",
        "in": "query",
        "required": false,
        "schema": {"type": "string", "minLength": 1, "maxLength": 512, "pattern": "^[A-Za-z0-9_-]+$"},
        "description": "Where the page starts: copied, unchanged, from the previous page's `Link: rel=\"next\"` header (opaque base64url; only cursors this server made for this list are accepted — anything else is a 400). Without `limit`, the page holds 100 rows."
      },
      "userID": {
        "name": "userID",
        "in": "path",
        "required": true,
        "description": "The user's id. Not a UUID: 400.",
        "schema": {"type": "string", "format": "uuid"},
        "example": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B"
      },
      "acronymID": {
        "name": "acronymID",
        "in": "path",
        "required": true,
        "description": "The acronym's id. Not a UUID: 400.",
        "schema": {"type": "string", "format": "uuid"},
        "example": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
      },
      "categoryID": {
        "name": "categoryID",
        "in": "path",
        "required": true,
        "description": "The category's id. Not a UUID: 400.",
        "schema": {"type": "string", "format": "uuid"},
        "example": "7C9E6679-7425-40DE-944B-E07FC1F90AE7"
      },
      "sessionID": {
        "name": "sessionID",
        "in": "path",
        "required": true,
        "description": "The session's id. Not a UUID: 400.",
        "schema": {"type": "string", "format": "uuid"},
        "example": "0F8FAD5B-D9CB-469F-A165-70867728950E"
      }
    },
    "headers": {
      "WWW-Authenticate": {
        "description": "The challenge of RFC 7617 (Basic) or RFC 6750 §3 (Bearer).",
        "schema": {"type": "string"},
        "example": "Bearer realm=\"TIL\", error=\"invalid_token\", error_description=\"The access token expired.\""
      },
      "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
        "example": "1"
      },
      "Link": {
        "description": "While more rows follow this page: `<relative URL of the next page>; rel=\"next\"` (RFC 8288), the same path and query with `limit` and `cursor` set. Absent on the last page and on a whole list.",
        "schema": {"type": "string"},
        "example": "</api/acronyms?limit=2&cursor=eyJsaXN0IjoiYWNyb255bXMiLCJzZXEiOjJ9e3Q1b2Hm4Kk>; rel=\"next\""
      },
      "Cache-Control": {
        "description": "`no-store`: a token must not sit in any cache (RFC 6749 §5.1).",
        "schema": {"type": "string", "enum": ["no-store"]}
      },
      "Pragma": {"description": "`no-cache`, for HTTP/1.0 caches.", "schema": {"type": "string", "enum": ["no-cache"]}}
    },
    "responses": {
      "AcronymList": {
        "description": "Acronyms: a JSON array, always (no envelope); one page of it with `limit` or `cursor`.",
        "headers": {"Link": {"$ref": "#/components/headers/Link"}},
        "content": {
          "application/json": {
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Acronym"}},
            "example": [
              {
                "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                "short": "OMG",
                "long": "Oh My God",
                "user": {"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B"}
              }
            ]
          }
        }
      },
      "CategoryList": {
        "description": "Categories: a JSON array, always (no envelope); one page of it with `limit` or `cursor`.",
        "headers": {"Link": {"$ref": "#/components/headers/Link"}},
        "content": {
          "application/json": {
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Category"}},
            "example": [{"id": "7C9E6679-7425-40DE-944B-E07FC1F90AE7", "name": "Teenager"}]
          }
        }
      },
      "UserList": {
        "description": "Users: a JSON array, always (no envelope); one page of it with `limit` or `cursor`.",
        "headers": {"Link": {"$ref": "#/components/headers/Link"}},
        "content": {
          "application/json": {
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/User"}},
            "example": [{"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B", "name": "Tim Condon", "username": "timc"}]
          }
        }
      },
      "SessionList": {
        "description": "Live sessions (not ended, refresh not expired): a JSON array, always (no envelope); one page of it with `limit` or `cursor`.",
        "headers": {"Link": {"$ref": "#/components/headers/Link"}},
        "content": {
          "application/json": {
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Session"}},
            "example": [
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
          }
        }
      },
      "Acronym": {
        "description": "The acronym.",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Acronym"},
            "example": {
              "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
              "short": "OMG",
              "long": "Oh My God",
              "user": {"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B"}
            }
          }
        }
      },
      "Category": {
        "description": "The category.",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Category"},
            "example": {"id": "7C9E6679-7425-40DE-944B-E07FC1F90AE7", "name": "Teenager"}
          }
        }
      },
      "User": {
        "description": "The user.",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/User"},
            "example": {"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B", "name": "Tim Condon", "username": "timc"}
          }
        }
      },
      "BadRequest": {
        "description": "The request is malformed: a bad path id, query parameter, JSON body or field (the reason names it), a NUL byte, or two `Authorization` headers.",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "Invalid acronymID: '12' is not a valid UUID."}
          }
        }
      },
      "Unauthorized": {
        "description": "No valid credentials. `WWW-Authenticate` says which: `Basic realm=\"TIL\"` (login), `Bearer realm=\"TIL\"` (no token), or `Bearer realm=\"TIL\", error=\"invalid_token\", error_description=\"…\"` (a token that is malformed, unknown, expired or revoked: refresh, or log in again).",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "The access token expired."}
          }
        },
        "headers": {"WWW-Authenticate": {"$ref": "#/components/headers/WWW-Authenticate", "required": true}}
      },
      "Forbidden": {
        "description": "Not allowed: a token without the scope this operation needs (`WWW-Authenticate: Bearer realm=\"TIL\", error=\"insufficient_scope\", scope=\"…\"`), or a rule of the operation (its description says which).",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "This token lacks the 'acronyms:write' scope."}
          }
        },
        "headers": {"WWW-Authenticate": {"$ref": "#/components/headers/WWW-Authenticate"}}
      },
      "NotFound": {
        "description": "No such resource (or one the path refers to).",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "No acronym with that id."}
          }
        }
      },
      "Conflict": {
        "description": "The value is already taken.",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "That value is already taken."}
          }
        }
      },
      "ContentTooLarge": {
        "description": "The request body is over 1 MiB.",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "Content Too Large"}
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The body is not `application/json` (or another `+json` type).",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "Missing Content-Type; send application/json."}
          }
        }
      },
      "TooManyRequests": {
        "description": "Too many failed logins for this username or client address; try again after `Retry-After` seconds.",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "Too many failed attempts; try again in 42 seconds."}
          }
        },
        "headers": {"Retry-After": {"$ref": "#/components/headers/Retry-After", "required": true}}
      },
      "ServiceUnavailable": {
        "description": "The database is unavailable (or, for logins and password hashing, too many wait for bcrypt); try again after `Retry-After` seconds when it is sent.",
        "content": {
          "application/json": {
            "schema": {"$ref": "#/components/schemas/Error"},
            "example": {"error": true, "reason": "The database is unavailable; try again shortly."}
          }
        },
        "headers": {"Retry-After": {"$ref": "#/components/headers/Retry-After"}}
      }
    }
  }
}
"""#
}
