public import Foundation
public import Web

/// A bearer token as issued at login. `value` is shown once, here; the database keeps only
/// its SHA-256 digest.
public struct Token: Content, Equatable {
    public var id: UUID
    public var value: String
    public var user: UserReference
}
