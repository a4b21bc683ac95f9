/// Finds the responder for a method and path by walking a trie of path segments: constants
/// first, then a `:parameter`, then `*`, then `**` — never a scan over every route.
struct Router: Sendable {
    enum Match {
        case found(Endpoint, Parameters)
        /// The path exists, but not for this method.
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    private var root = Node()
    /// Routes made only of constants, by their canonical path ("/api/acronyms/first"): such a
    /// path is answered without splitting or decoding it (a constant always wins in the trie).
    private var constantPaths: [String: [HTTPMethod: Endpoint]] = [:]

    /// Adds a route whose middleware chain is already folded into `responder`.
    mutating func register(_ method: HTTPMethod, _ path: [PathComponent], _ endpoint: Endpoint) {
        root.insert(path[...], method: method, endpoint: endpoint)
        let constants = path.compactMap { component -> String? in
            if case .constant(let value) = component { return value }
            return nil
        }
        if constants.count == path.count, constants.allSatisfy(Self.needsNoDecoding) {
            constantPaths["/" + constants.joined(separator: "/"), default: [:]][method] = endpoint
        }
    }

    func match(_ method: HTTPMethod, path: String) -> Match {
        if let responders = constantPaths[path], let endpoint = Self.endpoint(for: method, in: responders) {
            return .found(endpoint, Parameters())
        }
        return matchInTrie(method, path: path)
    }

    /// The path's endpoint for `method`; a HEAD without a route of its own is answered by GET's.
    private static func endpoint(for method: HTTPMethod, in responders: [HTTPMethod: Endpoint]) -> Endpoint? {
        responders[method] ?? (method == .head ? responders[.get] : nil)
    }

    /// A segment that reads the same before and after percent-decoding.
    private static func needsNoDecoding(_ segment: String) -> Bool {
        !segment.isEmpty && !segment.contains("%") && !segment.contains("/")
    }

    private func matchInTrie(_ method: HTTPMethod, path: String) -> Match {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = PercentDecoding.decode(segment, plusIsSpace: false) else { return .notFound }
            segments.append(Substring(decoded))
        }
        var parameters = Parameters()
        guard let responders = root.find(segments[...], parameters: &parameters) else { return .notFound }
        if let endpoint = Self.endpoint(for: method, in: responders) {
            return .found(endpoint, parameters)
        }
        return .methodNotAllowed(allowed: responders.keys.sorted { $0.rawValue < $1.rawValue })
    }
}

/// A registered route: its chain folded around its handler (also without suspending, when
/// handler and middleware are synchronous), and its pattern as registered
/// (`/api/acronyms/:acronymID`), for metrics.
struct Endpoint: Sendable {
    let responder: any Responder
    let immediate: ImmediateResponder?
    let route: String
}

/// One trie node. Parameter and wildcard children sit in 0-or-1-element arrays, which lets a
/// recursive value type hold them.
private struct Node: Sendable {
    var constants: [Substring: Node] = [:]
    var parameter: [(name: String, node: Node)] = []
    var anything: [Node] = []
    var catchall: [HTTPMethod: Endpoint] = [:]
    var responders: [HTTPMethod: Endpoint] = [:]

    mutating func insert(_ path: ArraySlice<PathComponent>, method: HTTPMethod, endpoint: Endpoint) {
        guard let first = path.first else {
            responders[method] = endpoint
            return
        }
        let rest = path.dropFirst()
        switch first {
        case .constant(let value):
            constants[Substring(value), default: Node()].insert(rest, method: method, endpoint: endpoint)
        case .parameter(let name):
            if parameter.isEmpty { parameter.append((name: name, node: Node())) }
            precondition(parameter[0].name == name, "route parameter ':\(name)' conflicts with ':\(parameter[0].name)' at the same position")
            parameter[0].node.insert(rest, method: method, endpoint: endpoint)
        case .anything:
            if anything.isEmpty { anything.append(Node()) }
            anything[0].insert(rest, method: method, endpoint: endpoint)
        case .catchall:
            catchall[method] = endpoint
        }
    }

    /// The responders of the best match; backtracks to a less specific branch when a more
    /// specific one dead-ends.
    func find(_ segments: ArraySlice<Substring>, parameters: inout Parameters) -> [HTTPMethod: Endpoint]? {
        guard let segment = segments.first else {
            if !responders.isEmpty { return responders }
            return catchall.isEmpty ? nil : catchall
        }
        let rest = segments.dropFirst()
        if let child = constants[segment], let found = child.find(rest, parameters: &parameters) {
            return found
        }
        if let edge = parameter.first {
            var attempt = parameters
            attempt.set(edge.name, to: String(segment))
            if let found = edge.node.find(rest, parameters: &attempt) {
                parameters = attempt
                return found
            }
        }
        if let child = anything.first, let found = child.find(rest, parameters: &parameters) {
            return found
        }
        return catchall.isEmpty ? nil : catchall
    }
}
