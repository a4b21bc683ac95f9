public import Sockets

/// Resolves `request.clientAddress` once, for everything after it (the login throttle, the
/// audit log) to read: the socket peer, unless that peer is one of `trustedProxies` — then the
/// right-most `X-Forwarded-For` entry that is not itself a trusted proxy. Entries to its left
/// were written by the client and prove nothing; an entry that is not an address stops the
/// walk at the peer.
///
/// Synchronous (header reading only), so it keeps a synchronous route task-free.
public struct ClientAddressMiddleware: SynchronousMiddleware {
    public let trustedProxies: [IPNetwork]

    public init(trustedProxies: [IPNetwork]) {
        self.trustedProxies = trustedProxies
    }

    public func respond(to request: Request, chainingTo next: any Responder) async throws -> Response {
        try await next.respond(to: resolved(request))
    }

    public func respond(to request: Request, chainingTo next: ImmediateResponder) throws -> Response {
        try next(resolved(request))
    }

    func resolved(_ request: Request) -> Request {
        guard let peer = request.remoteAddress.flatMap(IPAddress.init), isTrusted(peer) else { return request }
        var request = request
        let hops = request.headers.values(for: "X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: " \t") }
        for hop in hops.reversed() {
            guard let address = IPAddress(hop) else { return request }  // garbage: trust nothing left of it
            if !isTrusted(address) {
                request.clientAddress = address.description
                return request
            }
        }
        return request
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}
