/// A named, reversible schema change: SQL to apply and SQL to undo it.
public struct Migration: Sendable {
    public var name: String
    public var prepare: [String]
    public var revert: [String]

    public init(name: String, prepare: [String], revert: [String]) {
        self.name = name
        self.prepare = prepare
        self.revert = revert
    }
}
