import CoreMetrics

/// `til_logins_total{outcome}`: how `POST /api/users/login` attempts ended. A rise in
/// `throttled` is guessing; a rise in `rejected_busy` means bcrypt is the bottleneck.
struct LoginMetrics: Sendable {
    enum Outcome: String {
        case success, failure, throttled
        /// Refused with 503 before hashing: the bcrypt queue was full (`LOGIN_QUEUE_LIMIT`).
        case rejectedBusy = "rejected_busy"
    }

    private let success: Counter
    private let failure: Counter
    private let throttled: Counter
    private let rejectedBusy: Counter

    init(factory: any MetricsFactory) {
        func counter(_ outcome: Outcome) -> Counter {
            Counter(label: "til_logins_total", dimensions: [("outcome", outcome.rawValue)], factory: factory)
        }
        success = counter(.success)
        failure = counter(.failure)
        throttled = counter(.throttled)
        rejectedBusy = counter(.rejectedBusy)
    }

    func record(_ outcome: Outcome) {
        switch outcome {
        case .success: success.increment()
        case .failure: failure.increment()
        case .throttled: throttled.increment()
        case .rejectedBusy: rejectedBusy.increment()
        }
    }
}
