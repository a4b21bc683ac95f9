extension OpenAPIDocument {
    /// Logging in and out, and refreshing a token pair.
    static let sessionPaths = #"""
{
  "paths": {
    "/api/users/login": {
      "post": {
        "operationId": "logIn",
        "tags": ["Sessions"],
        "summary": "Log in with HTTP Basic: a new session and its token pair.",
        "description": "Every successful login starts a session with the scopes asked for (`?scope=`) or all of them. Failed logins are counted per username and per client address; past the limit the answer is 429 with `Retry-After`, without checking the password. When too many logins already wait for bcrypt: 503 with `Retry-After`.",
        "parameters": [
          {
            "name": "scope",
            "in": "query",
            "required": false,
            "description": "Space-separated scopes for this session (a subset of the four). Unknown or none named: 400 `invalid_scope`.",
            "schema": {
              "type": "string",
              "pattern": "^[ +]*(?:acronyms:write|categories:write|users:write|account)(?:[ +]+(?:acronyms:write|categories:write|users:write|account))*[ +]*$"
            },
            "example": "acronyms:write account"
          }
        ],
        "security": [{"basicAuth": []}],
        "responses": {
          "200": {
            "description": "The new session's pair.",
            \#(tokenPairContent),
            "links": {
              "GetSessionUser": {"operationId": "getUser", "parameters": {"userID": "$response.body#/user/id"}},
              "RefreshSession": {"operationId": "refreshToken", "requestBody": {"refreshToken": "$response.body#/refreshToken"}}
            }
          },
          \#(errorResponses(400, 401, 429, 503))
        }
      }
    },
    "/api/users/refresh": {
      "post": {
        "operationId": "refreshToken",
        "tags": ["Sessions"],
        "summary": "Spend a refresh token for a new pair of the same session.",
        "description": "The refresh token is spent. Presenting a spent one again revokes the whole session (401 `invalid_token`): two parties hold it.",
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RefreshRequest"}}}
        },
        "security": [],
        "responses": {
          "200": {
            "description": "The session's new pair (same `id`, same scopes).",
            \#(tokenPairContent)
          },
          \#(errorResponses(400, 401, 413, 415, 503))
        }
      }
    },
    "/api/users/logout": {
      "post": {
        "operationId": "logOut",
        "tags": ["Sessions"],
        "summary": "End the caller's session.",
        "security": [{"bearerAuth": []}],
        "responses": {
          "204": {"description": "Logged out: the session's access and refresh tokens stop working."},
          \#(errorResponses(400, 401, 503))
        }
      }
    },
    "/api/users/logout-all": {
      "post": {
        "operationId": "logOutEverywhere",
        "tags": ["Sessions"],
        "summary": "End every session of the caller.",
        "security": [{"bearerAuth": ["account"]}],
        "responses": {
          "204": {"description": "Every session ended."},
          \#(errorResponses(400, 401, 403, 503))
        }
      }
    }
  }
}
"""#

    /// The `content` and `headers` of a new token pair's 200: login and refresh answer alike.
    private static let tokenPairContent = #"""
"content": {
  "application/json": {
    "schema": {"$ref": "#/components/schemas/Token"},
    "example": {
      "id": "0F8FAD5B-D9CB-469F-A165-70867728950E",
      "value": "q0Qe5sXo3oLq2J7hZ3Q9uNw1Jr2kB8vD4yT6mA0cE5s",
      "user": {"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B"},
      "expiresAt": "2026-11-23T13:00:00Z",
      "refreshToken": "Zk3vQ8pL1sN6tR0wY4uI7oP2aS5dF9gH3jK6lZ8xC1v",
      "refreshExpiresAt": "2026-12-23T12:00:00Z",
      "scopes": ["acronyms:write", "categories:write", "users:write", "account"],
      "tokenType": "Bearer"
    }
  }
},
"headers": {
  "Cache-Control": {"$ref": "#/components/headers/Cache-Control", "required": true},
  "Pragma": {"$ref": "#/components/headers/Pragma", "required": true}
}
"""#
}
