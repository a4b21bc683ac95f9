extension OpenAPIDocument {
    /// `/api/acronyms`: the public reads, search among them.
    static let acronymReadPaths = #"""
{
  "paths": {
    "/api/acronyms": {
      "get": {
        "operationId": "listAcronyms",
        "tags": ["Acronyms"],
        "summary": "Every acronym, in creation order.",
        "parameters": [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/cursor"}],
        "responses": {
          "200": {"$ref": "#/components/responses/AcronymList"},
          \#(errorResponses(400, 503))
        }
      }
    },
    "/api/acronyms/search": {
      "get": {
        "operationId": "searchAcronyms",
        "tags": ["Acronyms"],
        "summary": "Acronyms whose short or long form is exactly the term, in creation order.",
        "parameters": [
          {
            "name": "term",
            "in": "query",
            "required": true,
            "description": "1–512 characters (Unicode scalars), no NUL. Missing or empty: 400.",
            "schema": {"type": "string", "minLength": 1, "maxLength": 512, "pattern": "^[^\\u0000]+$"},
            "example": "OMG"
          },
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/AcronymList"},
          \#(errorResponses(400, 503))
        }
      }
    },
    "/api/acronyms/first": {
      "get": {
        "operationId": "getFirstAcronym",
        "tags": ["Acronyms"],
        "summary": "The oldest acronym.",
        "responses": {
          "200": {"$ref": "#/components/responses/Acronym"},
          \#(errorResponses(400, 404, 503))
        }
      }
    },
    "/api/acronyms/sorted": {
      "get": {
        "operationId": "listSortedAcronyms",
        "tags": ["Acronyms"],
        "summary": "Every acronym by `short` ascending (the database's collation), ties in creation order.",
        "parameters": [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/cursor"}],
        "responses": {
          "200": {"$ref": "#/components/responses/AcronymList"},
          \#(errorResponses(400, 503))
        }
      }
    },
    "/api/acronyms/{acronymID}": {
      "get": {
        "operationId": "getAcronym",
        "tags": ["Acronyms"],
        "summary": "One acronym.",
        "parameters": [{"$ref": "#/components/parameters/acronymID"}],
        "responses": {
          "200": {"$ref": "#/components/responses/Acronym"},
          \#(errorResponses(400, 404, 503))
        }
      }
    },
    "/api/acronyms/{acronymID}/user": {
      "get": {
        "operationId": "getAcronymUser",
        "tags": ["Acronyms"],
        "summary": "The acronym's owner.",
        "parameters": [{"$ref": "#/components/parameters/acronymID"}],
        "responses": {
          "200": {"$ref": "#/components/responses/User"},
          \#(errorResponses(400, 404, 503))
        }
      }
    },
    "/api/acronyms/{acronymID}/categories": {
      "get": {
        "operationId": "listAcronymCategories",
        "tags": ["Acronyms"],
        "summary": "The acronym's categories, in the order they were linked.",
        "parameters": [
          {"$ref": "#/components/parameters/acronymID"},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/CategoryList"},
          \#(errorResponses(400, 404, 503))
        }
      }
    }
  }
}
"""#
}
