import ArgumentParser
import Foundation

/// Reads an id argument: a UUID, or a usage error that says so.
enum Identifier {
    static func parse(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw ValidationError("'\(text)' is not an id (a UUID).") }
        return id
    }
}
