public import Foundation

extension APIClient {
    /// How a client behaves; the defaults suit people and scripts alike.
    public struct Configuration: Sendable {
        /// A token this close to its expiry is renewed before it is sent (at most half its
        /// lifetime): a request never leaves with a token about to lapse, even if the clocks
        /// disagree a little.
        public var refreshMargin: Duration = .seconds(60)
        /// The refresh-loop guard: at most this many refreshes per scope set per window.
        public var refreshLimit = 5
        public var refreshWindow: Duration = .seconds(60)
        /// Waiting and retrying on 429 and 503.
        public var retry = RetryPolicy()
        /// Seconds a request may take.
        public var timeout: TimeInterval = 30
        public var userAgent = "TILClient/1"
        /// Extra steps, run closest to the network: they see each attempt as it is sent.
        public var steps: [any RequestStep] = []
        /// What sends requests; URLSession unless set.
        public var transport: (any Transport)?
        /// Asked for the password (and a code) when a sensitive change meets the step-up
        /// challenge; then `POST /api/users/me/reauth` and the change once more. Unset, such a
        /// change throws `TILError.reauthenticationRequired`.
        public var reauthenticate: APIClient.Reauthenticator?

        public init() {}
    }
}
