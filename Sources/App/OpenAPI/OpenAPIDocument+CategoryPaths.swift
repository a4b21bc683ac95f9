extension OpenAPIDocument {
    /// `/api/categories`: reads and creation.
    static let categoryPaths = #"""
{
  "paths": {
    "/api/categories": {
      "get": {
        "operationId": "listCategories",
        "tags": ["Categories"],
        "summary": "Every category, in creation order.",
        "parameters": [{"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/cursor"}],
        "responses": {
          "200": {"$ref": "#/components/responses/CategoryList"},
          \#(errorResponses(400, 503))
        }
      },
      "post": {
        "operationId": "createCategory",
        "tags": ["Categories"],
        "summary": "Create a category.",
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CategoryInput"}}}
        },
        "security": [{"bearerAuth": ["categories:write"]}],
        "responses": {
          "200": {
            "description": "The new category.",
            "content": {
              "application/json": {
                "schema": {"$ref": "#/components/schemas/Category"},
                "example": {"id": "7C9E6679-7425-40DE-944B-E07FC1F90AE7", "name": "Teenager"}
              }
            },
            "links": {
              "GetCategory": {"operationId": "getCategory", "parameters": {"categoryID": "$response.body#/id"}},
              "ListCategoryAcronyms": {"operationId": "listCategoryAcronyms", "parameters": {"categoryID": "$response.body#/id"}}
            }
          },
          \#(errorResponses(400, 401, 403, 413, 415, 503))
        }
      }
    },
    "/api/categories/{categoryID}": {
      "get": {
        "operationId": "getCategory",
        "tags": ["Categories"],
        "summary": "One category.",
        "parameters": [{"$ref": "#/components/parameters/categoryID"}],
        "responses": {
          "200": {"$ref": "#/components/responses/Category"},
          \#(errorResponses(400, 404, 503))
        }
      }
    },
    "/api/categories/{categoryID}/acronyms": {
      "get": {
        "operationId": "listCategoryAcronyms",
        "tags": ["Categories"],
        "summary": "The category's acronyms, in the order they were linked.",
        "parameters": [
          {"$ref": "#/components/parameters/categoryID"},
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
