import CoreMetrics

/// `til_logins_total{outcome}`: how `POST /api/users/login` attempts ended. A rise in
/// `throttled` is guessing; a rise in `rejected_busy` means bcrypt is the bottleneck.
struct LoginMetrics: Sendable {
    enum Outcome: String, CaseIterable {
        case success, failure, throttled
        /// Refused with 503 before hashing: the bcrypt queue was full (`LOGIN_QUEUE_LIMIT`).
        case rejectedBusy = "rejected_busy"
    }

    static let family = "til_logins_total"
    static let help = [family: "Login attempts, by outcome: success, failure, throttled (429) or rejected_busy (503)."]

    /// One counter per outcome, made up front: recording is a lookup, never a registration.
    private let counters: [Outcome: Counter]

    init(factory: any MetricsFactory) {
        counters = Dictionary(uniqueKeysWithValues: Outcome.allCases.map { outcome in
            (outcome, Counter(label: Self.family, dimensions: [("outcome", outcome.rawValue)], factory: factory))
        })
    }

    func record(_ outcome: Outcome) {
        counters[outcome]?.increment()
    }
}
