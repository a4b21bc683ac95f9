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
          "200": {
            "description": "Acronyms. A JSON array, always (no envelope); one page of it with `limit`/`cursor`.",
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
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
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
          "200": {
            "description": "Matches. A JSON array, always (no envelope); one page of it with `limit`/`cursor`.",
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
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    },
    "/api/acronyms/first": {
      "get": {
        "operationId": "getFirstAcronym",
        "tags": ["Acronyms"],
        "summary": "The oldest acronym.",
        "responses": {
          "200": {
            "description": "The first acronym.",
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
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
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
          "200": {
            "description": "Acronyms. A JSON array, always (no envelope); one page of it with `limit`/`cursor`.",
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
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
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
          "200": {
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
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
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
          "200": {
            "description": "The owner.",
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
          "200": {
            "description": "Categories. A JSON array, always (no envelope); one page of it with `limit`/`cursor`.",
            "content": {
              "application/json": {
                "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Category"}},
                "example": [{"id": "7C9E6679-7425-40DE-944B-E07FC1F90AE7", "name": "Teenager"}]
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
