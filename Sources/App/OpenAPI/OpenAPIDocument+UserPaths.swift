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
          "200": {"$ref": "#/components/responses/UserList"},
          \#(errorResponses(400, 503))
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
          \#(errorResponses(400, 401, 403, 409, 413, 415, 503))
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
          "200": {"$ref": "#/components/responses/User"},
          \#(errorResponses(400, 404, 503))
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
          "200": {"$ref": "#/components/responses/AcronymList"},
          \#(errorResponses(400, 404, 503))
        }
      }
    }
  }
}
"""#
}
