extension OpenAPIDocument {
    /// `/api/acronyms`: creating, updating and deleting acronyms, and linking categories.
    static let acronymWritePaths = #"""
{
  "paths": {
    "/api/acronyms": {
      "post": {
        "operationId": "createAcronym",
        "tags": ["Acronyms"],
        "summary": "Create an acronym owned by the caller.",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AcronymInput"}}}},
        "security": [{"bearerAuth": ["acronyms:write"]}],
        "responses": {
          "200": {
            "description": "The new acronym.",
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
            },
            "links": {
              "GetAcronym": {"operationId": "getAcronym", "parameters": {"acronymID": "$response.body#/id"}},
              "GetAcronymUser": {"operationId": "getAcronymUser", "parameters": {"acronymID": "$response.body#/id"}},
              "ListAcronymCategories": {"operationId": "listAcronymCategories", "parameters": {"acronymID": "$response.body#/id"}},
              "UpdateAcronym": {"operationId": "updateAcronym", "parameters": {"acronymID": "$response.body#/id"}},
              "DeleteAcronym": {"operationId": "deleteAcronym", "parameters": {"acronymID": "$response.body#/id"}},
              "GetOwner": {"operationId": "getUser", "parameters": {"userID": "$response.body#/user/id"}}
            }
          },
          \#(errorResponses(400, 401, 403, 413, 415, 503))
        }
      }
    },
    "/api/acronyms/{acronymID}": {
      "put": {
        "operationId": "updateAcronym",
        "tags": ["Acronyms"],
        "summary": "Replace an acronym's short and long forms.",
        "description": "As in the book the caller becomes the owner — unless the server runs with `ACRONYM_EDIT_POLICY=owner`: then only the owner may update it (403 otherwise), and stays the owner.",
        "parameters": [{"$ref": "#/components/parameters/acronymID"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AcronymInput"}}}},
        "security": [{"bearerAuth": ["acronyms:write"]}],
        "responses": {
          "200": {"$ref": "#/components/responses/Acronym"},
          \#(errorResponses(400, 401, 403, 404, 413, 415, 503))
        }
      },
      "delete": {
        "operationId": "deleteAcronym",
        "tags": ["Acronyms"],
        "summary": "Delete an acronym (and its category links).",
        "description": "Under `ACRONYM_EDIT_POLICY=owner` only the owner may delete it (403 otherwise).",
        "parameters": [{"$ref": "#/components/parameters/acronymID"}],
        "security": [{"bearerAuth": ["acronyms:write"]}],
        "responses": {
          "204": {"description": "Deleted."},
          \#(errorResponses(400, 401, 403, 404, 503))
        }
      }
    },
    "/api/acronyms/{acronymID}/categories/{categoryID}": {
      "post": {
        "operationId": "linkCategory",
        "tags": ["Acronyms"],
        "summary": "Link an acronym to a category.",
        "parameters": [{"$ref": "#/components/parameters/acronymID"}, {"$ref": "#/components/parameters/categoryID"}],
        "security": [{"bearerAuth": ["acronyms:write"]}],
        "responses": {
          "201": {"description": "Linked (linking twice keeps one link)."},
          \#(errorResponses(400, 401, 403, 404, 503))
        }
      },
      "delete": {
        "operationId": "unlinkCategory",
        "tags": ["Acronyms"],
        "summary": "Unlink an acronym from a category.",
        "parameters": [{"$ref": "#/components/parameters/acronymID"}, {"$ref": "#/components/parameters/categoryID"}],
        "security": [{"bearerAuth": ["acronyms:write"]}],
        "responses": {
          "204": {"description": "Unlinked (also when they were not linked)."},
          \#(errorResponses(400, 401, 403, 404, 503))
        }
      }
    }
  }
}
"""#
}
