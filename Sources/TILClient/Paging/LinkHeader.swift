public import Foundation

/// The `Link` header (RFC 8288): `<uri>; rel="next", <uri2>; rel="prev"; title="…"`.
/// Targets are resolved against the URL that was asked; `rel` may hold several relation
/// types, compared without case.
public struct LinkHeader: Sendable, Equatable {
    public struct Link: Sendable, Equatable {
        public var target: URL
        public var relations: Set<String>
    }

    public var links: [Link]

    public init(parsing value: String, relativeTo base: URL?) {
        var scanner = HeaderScanner(value)
        var links: [Link] = []
        while !scanner.isAtEnd {
            guard scanner.take("<"), let reference = scanner.until(">") else {
                scanner.skipElement()
                continue
            }
            var relations = Set<String>()
            while scanner.take(";") {
                let name = scanner.token().lowercased()
                guard scanner.take("=") else { continue }
                let parameter = scanner.value()
                if name == "rel" {
                    relations.formUnion(parameter.lowercased().split(separator: " ").map(String.init))
                }
            }
            if let target = URL(string: reference.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL {
                links.append(Link(target: target, relations: relations))
            }
            scanner.skipElement()
        }
        self.links = links
    }

    /// The target of the first link with relation `relation`.
    public func target(_ relation: String) -> URL? {
        links.first { $0.relations.contains(relation.lowercased()) }?.target
    }
}
