import Foundation

/// A string field's documented bounds: in UTF-8 bytes where the document says so
/// (`x-min-utf8-bytes`, `x-max-utf8-bytes`), else `minLength`/`maxLength`.
struct StringBounds: Equatable {
    var min: Int?
    var max: Int?
    /// Whether `min` and `max` count bytes rather than characters.
    var minInBytes = false
    var maxInBytes = false
    /// An email address (`format: idn-email`): every probe is then a valid address of the
    /// probe's length, so only the length decides.
    var isEmail = false

    /// Nil unless `schema` is a string schema with at least one bound.
    init?(_ schema: JSONValue) {
        guard schema["type"] == .string("string") else { return nil }
        let bytes = (min: schema["x-min-utf8-bytes"]?.number, max: schema["x-max-utf8-bytes"]?.number)
        min = (bytes.min ?? schema["minLength"]?.number).map { Int($0) }
        max = (bytes.max ?? schema["maxLength"]?.number).map { Int($0) }
        minInBytes = bytes.min != nil
        maxInBytes = bytes.max != nil
        isEmail = ["email", "idn-email"].contains(schema["format"]?.string)
        if min == nil, max == nil { return nil }
    }

    /// A fresh value within the bounds (16 bytes when they allow), unique so that a unique
    /// field (a username) never collides with an earlier one.
    var freshValue: String {
        isEmail ? Self.email(bytes: 32) : Self.letters(count: Swift.min(max ?? 16, Swift.max(min ?? 0, 16)))
    }

    /// The values that pin each bound: the bound and one inside it are valid, one past it is
    /// not. A bound in bytes is also sent in two-byte characters (`é`), which reach it at
    /// half the character count: a server counting characters would take the one past it.
    var probes: [(text: String, valid: Bool, label: String)] {
        guard !isEmail else { return emailProbes }
        var probes: [(text: String, valid: Bool, label: String)] = []
        if let min {
            probes += [(Self.letters(count: min), true, "min \(min)"), (Self.letters(count: min + 1), true, "min \(min) + 1")]
            if min > 0 { probes.append((Self.letters(count: min - 1), false, "min \(min) - 1")) }
            if minInBytes { probes.append((Self.twoByte(bytes: min), true, "min \(min) bytes of é")) }
            if minInBytes, min > 0 { probes.append((Self.twoByte(bytes: min - 1), false, "min \(min) - 1 bytes of é")) }
        }
        if let max {
            probes += [(Self.letters(count: max), true, "max \(max)"), (Self.letters(count: max - 1), true, "max \(max) - 1")]
            probes.append((Self.letters(count: max + 1), false, "max \(max) + 1"))
            if maxInBytes {
                probes += [(Self.twoByte(bytes: max), true, "max \(max) bytes of é"), (Self.twoByte(bytes: max + 1), false, "max \(max) + 1 bytes of é")]
            }
        }
        return probes
    }

    /// The email probes: at the maximum, one inside and one past it, in ASCII and in two-byte letters.
    private var emailProbes: [(text: String, valid: Bool, label: String)] {
        guard let max else { return [] }
        return [
            (Self.email(bytes: max), true, "max \(max)"), (Self.email(bytes: max - 1), true, "max \(max) - 1"),
            (Self.email(bytes: max + 1), false, "max \(max) + 1"),
            (Self.email(bytes: max, twoByte: true), true, "max \(max) bytes of é"),
            (Self.email(bytes: max + 1, twoByte: true), false, "max \(max) + 1 bytes of é"),
        ]
    }

    /// A fresh address of exactly `bytes` bytes (at least 18): `<8 letters>@<label>.example`, the
    /// label filled with letters, or with two-byte ones.
    static func email(bytes: Int, twoByte: Bool = false) -> String {
        let fill = bytes - 17
        return letters(count: 8) + "@" + (twoByte ? Self.twoByte(bytes: fill) : letters(count: fill)) + ".example"
    }

    /// `count` random lowercase ASCII letters: `count` bytes.
    static func letters(count: Int) -> String {
        String((0..<count).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
    }

    /// Random two-byte letters (`à`…`ü`, NFC already), plus one ASCII letter when `bytes` is odd.
    static func twoByte(bytes: Int) -> String {
        String((0..<bytes / 2).map { _ in "àáâäçèéêëìíîïñòóôöùúûü".randomElement()! }) + letters(count: bytes % 2)
    }
}

extension OpenAPIContract {
    /// The schema of `operation`'s JSON request body, `$ref`s resolved; nil when it takes none.
    func requestSchema(of operation: DocumentedOperation) -> JSONValue? {
        var body = operation.spec["requestBody"]
        if let ref = body?["$ref"]?.string { body = validator.resolve(ref) }
        guard let schema = body?["content"]?["application/json"]?["schema"] else { return nil }
        return schema["$ref"]?.string.flatMap(validator.resolve) ?? schema
    }

    /// The top-level properties of `operation`'s request body, `$ref`s resolved.
    func requestProperties(of operation: DocumentedOperation) -> [String: JSONValue] {
        guard case .object(let properties)? = requestSchema(of: operation)?["properties"] else { return [:] }
        return properties.mapValues { $0["$ref"]?.string.flatMap(validator.resolve) ?? $0 }
    }

    /// The request body's string fields with documented bounds, by name. Bounds deeper down
    /// would go unprobed, so they stop the test instead.
    func boundedFields(of operation: DocumentedOperation) throws -> [(name: String, bounds: StringBounds)] {
        try requestProperties(of: operation).sorted { $0.key < $1.key }.compactMap { name, schema in
            if let bounds = StringBounds(schema) { return (name, bounds) }
            if schema["type"] != .string("string"), hasLengthBounds(schema) {
                throw UnreadableContract(description: "\(operation) '\(name)': bounds below the top level are not probed yet")
            }
            return nil
        }
    }

    private func hasLengthBounds(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            members.keys.contains { ["minLength", "maxLength", "x-min-utf8-bytes", "x-max-utf8-bytes"].contains($0) }
                || members.values.contains(where: hasLengthBounds)
        case .array(let elements): elements.contains(where: hasLengthBounds)
        default: false
        }
    }
}
