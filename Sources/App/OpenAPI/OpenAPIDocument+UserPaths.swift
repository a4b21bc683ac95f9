extension OpenAPIDocument {
    /// `/api/users`: listing, reading and creating users.
    static let userPaths = #"""
{
  "paths": {
    "/api/users": {
      "get": {
        "operationId": "listUsers",
        "tags": ["Users"],
        "summary": "Every user, in creation order.",
        "parameters": [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/cursor"}],
        "responses": {
          "200": {
            "description": "Users. A JSON array, always (no envelope); one page of it with `limit`/`cursor`.",
            "content": {
              "application/json": {
                "schema": {"type": "array", "items": {"$ref": "#/components/schemas/User"}},
                "example": [{"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B", "name": "Tim Condon", "username": "timc"}]
              }
            },
            "headers": {"Link": {"$ref": "#/components/headers/Link"}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      },
      "post": {
        "operationId": "createUser",
        "tags": ["Users"],
        "summary": "Create a user.",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CreateUser"}}}},
        "security": [{"bearerAuth": ["users:write"]}],
        "responses": {
          "200": {
            "description": "The new user.",
            "content": {
              "application/json": {
                "schema": {"$ref": "#/components/schemas/User"},
                "example": {"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B", "name": "Tim Condon", "username": "timc"}
              }
            },
            "links": {
              "GetUser": {"operationId": "getUser", "parameters": {"userID": "$response.body#/id"}},
              "ListUserAcronyms": {"operationId": "listUserAcronyms", "parameters": {"userID": "$response.body#/id"}}
            }
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "415": {"$ref": "#/components/responses/UnsupportedMediaType"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    },
    "/api/users/{userID}": {
      "get": {
        "operationId": "getUser",
        "tags": ["Users"],
        "summary": "One user.",
        "parameters": [{"$ref": "#/components/parameters/userID"}],
        "responses": {
          "200": {
            "description": "The user.",
            "content": {
              "application/json": {
                "schema": {"$ref": "#/components/schemas/User"},
                "example": {"id": "2B4A9C5E-7D21-4F0B-9E3A-6C8D1F2E3A4B", "name": "Tim Condon", "username": "timc"}
              }
            }
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    },
    "/api/users/{userID}/acronyms": {
      "get": {
        "operationId": "listUserAcronyms",
        "tags": ["Users"],
        "summary": "A user's acronyms, in creation order.",
        "parameters": [
          {"$ref": "#/components/parameters/userID"},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ],
        "responses": {
          "200": {
            "description": "The user's acronyms. A JSON array, always (no envelope); one page of it with `limit`/`cursor`.",
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
            },
            "headers": {"Link": {"$ref": "#/components/headers/Link"}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    }
  }
}
"""#
}
