extension OpenAPIDocument {
    /// The caller's own account and sessions, the health probes and the metrics.
    static let accountPaths = #"""
{
  "paths": {
    "/health": {
      "get": {
        "operationId": "getHealth",
        "tags": ["Health"],
        "summary": "Liveness: answers without touching the database.",
        "responses": {
          "200": {
            "description": "Alive.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}, "example": {"status": "ok"}}}
          },
          \#(errorResponses(400))
        }
      }
    },
    "/ready": {
      "get": {
        "operationId": "getReady",
        "tags": ["Health"],
        "summary": "Readiness: checks the database.",
        "responses": {
          "200": {
            "description": "Ready to serve.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}, "example": {"status": "ready"}}}
          },
          \#(errorResponses(400, 503))
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "getMetrics",
        "tags": ["Health"],
        "summary": "Prometheus metrics; no database round trip. Absent with METRICS=off, or on METRICS_PORT instead.",
        "responses": {
          "200": {
            "description": "Prometheus text exposition format 0.0.4.",
            "content": {"text/plain": {"schema": {"type": "string"}}}
          },
          \#(errorResponses(400))
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "getOpenAPIDocument",
        "tags": ["Health"],
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 document of this API.",
            "content": {"application/json": {"schema": {"type": "object"}}}
          },
          \#(errorResponses(400))
        }
      }
    },
    "/api/users/me": {
      "get": {
        "operationId": "getMe",
        "tags": ["Account"],
        "summary": "Who the token belongs to.",
        "security": [{"bearerAuth": []}],
        "responses": {
          "200": {"$ref": "#/components/responses/User"},
          \#(errorResponses(400, 401, 503))
        }
      }
    },
    "/api/users/me/sessions": {
      "get": {
        "operationId": "listSessions",
        "tags": ["Account"],
        "summary": "The caller's live sessions, oldest first.",
        "parameters": [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/cursor"}],
        "security": [{"bearerAuth": ["account"]}],
        "responses": {
          "200": {"$ref": "#/components/responses/SessionList"},
          \#(errorResponses(400, 401, 403, 503))
        }
      }
    },
    "/api/users/me/sessions/{sessionID}": {
      "delete": {
        "operationId": "endSession",
        "tags": ["Account"],
        "summary": "End one of the caller's sessions.",
        "description": "Another user's sessions are as invisible as unknown ones: 404.",
        "parameters": [{"$ref": "#/components/parameters/sessionID"}],
        "security": [{"bearerAuth": ["account"]}],
        "responses": {
          "204": {"description": "The session ended."},
          \#(errorResponses(400, 401, 403, 404, 503))
        }
      }
    },
    "/api/users/me/password": {
      "put": {
        "operationId": "changePassword",
        "tags": ["Account"],
        "summary": "Change the caller's password; every other session ends.",
        "description": "Needs the current password: a wrong one is a 403 and counts toward the login throttle (429 past it).",
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PasswordChange"}}}
        },
        "security": [{"bearerAuth": ["account"]}],
        "responses": {
          "204": {"description": "Changed; the calling session stays, every other one ended."},
          \#(errorResponses(400, 401, 403, 413, 415, 429, 503))
        }
      }
    }
  }
}
"""#
}
