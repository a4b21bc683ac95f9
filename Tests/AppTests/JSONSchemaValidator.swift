import Foundation

/// A JSON Schema validator for the subset TIL's OpenAPI document uses in its answers: `type`
/// (one or several), `properties`, `required`, `additionalProperties` (false or a schema),
/// `items`, `$ref` (within the document), `enum`, `anyOf`, `pattern`, `minLength`/`maxLength`,
/// `minimum`/`maximum`, and the formats `uuid` and `date-time`. Anything else in a schema fails
/// loudly, so the document cannot outgrow the checks without the tests saying so.
struct JSONSchemaValidator {
    let document: JSONValue

    private static let understood: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "$ref", "enum", "anyOf", "pattern",
        "minLength", "maxLength", "minimum", "maximum", "format", "description", "examples", "propertyNames",
        "x-max-utf8-bytes", "x-min-utf8-bytes",
    ]

    /// Every way `value` breaks `schema`, each naming where; empty when it validates.
    func errors(of value: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        guard case .object(let rules) = schema else { return ["\(path): schema is not an object"] }
        if let unknown = rules.keys.first(where: { !Self.understood.contains($0) }) {
            return ["\(path): the validator does not know the keyword '\(unknown)'"]
        }
        if let ref = rules["$ref"]?.string {
            guard let target = resolve(ref) else { return ["\(path): unresolvable $ref \(ref)"] }
            return errors(of: value, against: target, at: path)
        }
        var found: [String] = []
        if let types = rules["type"], !matches(value, types) { return ["\(path): \(describe(value)) is not of type \(describe(types))"] }
        if case .array(let allowed)? = rules["enum"], !allowed.contains(value) { found.append("\(path): \(describe(value)) not in enum") }
        if case .array(let options)? = rules["anyOf"], !options.contains(where: { errors(of: value, against: $0, at: path).isEmpty }) {
            found.append("\(path): \(describe(value)) matches none of anyOf")
        }
        switch value {
        case .object(let members): found += objectErrors(members, rules, path)
        case .array(let elements):
            if let items = rules["items"] {
                for (index, element) in elements.enumerated() { found += errors(of: element, against: items, at: "\(path)[\(index)]") }
            }
        case .string(let text): found += stringErrors(text, rules, path)
        case .number(let number):
            if case .number(let minimum)? = rules["minimum"], number < minimum { found.append("\(path): \(number) < \(minimum)") }
            if case .number(let maximum)? = rules["maximum"], number > maximum { found.append("\(path): \(number) > \(maximum)") }
        case .null, .bool: break
        }
        return found
    }

    private func objectErrors(_ members: [String: JSONValue], _ rules: [String: JSONValue], _ path: String) -> [String] {
        var found: [String] = []
        let properties: [String: JSONValue]
        if case .object(let declared)? = rules["properties"] { properties = declared } else { properties = [:] }
        if case .array(let required)? = rules["required"] {
            for case .string(let name) in required where members[name] == nil { found.append("\(path): missing required '\(name)'") }
        }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if let schema = properties[name] {
                found += errors(of: member, against: schema, at: "\(path).\(name)")
            } else if rules["additionalProperties"] == .bool(false) {
                found.append("\(path): unexpected property '\(name)'")
            } else if let schema = rules["additionalProperties"], case .object = schema {
                found += errors(of: member, against: schema, at: "\(path).\(name)")
            }
        }
        return found
    }

    private func stringErrors(_ text: String, _ rules: [String: JSONValue], _ path: String) -> [String] {
        var found: [String] = []
        let length = text.unicodeScalars.count
        if case .number(let minimum)? = rules["minLength"], Double(length) < minimum { found.append("\(path): shorter than \(minimum)") }
        if case .number(let maximum)? = rules["maxLength"], Double(length) > maximum { found.append("\(path): longer than \(maximum)") }
        if let pattern = rules["pattern"]?.string, text.range(of: pattern, options: .regularExpression) == nil {
            found.append("\(path): '\(text.prefix(40))' does not match \(pattern)")
        }
        switch rules["format"]?.string {
        case "uuid"? where UUID(uuidString: text) == nil: found.append("\(path): '\(text.prefix(40))' is not a uuid")
        case "date-time"? where (try? Date(text, strategy: .iso8601)) == nil: found.append("\(path): '\(text.prefix(40))' is not a date-time")
        default: break
        }
        return found
    }

    /// `#/components/schemas/Name` and the like: a JSON pointer into the document.
    func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/") else { return nil }
        var node: JSONValue? = document
        for token in ref.dropFirst(2).split(separator: "/") {
            node = node?[token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")]
        }
        return node
    }

    private func matches(_ value: JSONValue, _ types: JSONValue) -> Bool {
        switch types {
        case .string(let type): matches(value, type)
        case .array(let types): types.contains { $0.string.map { matches(value, $0) } ?? false }
        default: false
        }
    }

    private func matches(_ value: JSONValue, _ type: String) -> Bool {
        switch (value, type) {
        case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"), (.number, "number"): true
        case (.number(let number), "integer"): number.rounded() == number
        default: false
        }
    }

    private func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let number): "\(number)"
        case .string(let text): "'\(text.prefix(40))'"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
