import Foundation

/// Waits and sends again when the server says "not now": 429 (a throttled login) or 503 (the
/// login queue is full, the database is busy). `Retry-After` is honoured — seconds or an
/// HTTP date — else the wait grows exponentially with jitter. Bounded in attempts and in total
/// wait; past either bound the refusal itself is the answer. A 503 is sent again only when it
/// says when, or when sending twice is harmless. Cancellation ends the wait at once.
struct RetryStep: RequestStep {
    let policy: RetryPolicy

    func send(_ request: APIRequest, next: Next) async throws -> APIResponse {
        var waited: Duration = .zero
        var attempt = 1
        while true {
            let response = try await next(request)
            guard attempt < policy.maxAttempts, let delay = delay(after: response, of: request, attempt: attempt),
                  waited + delay <= policy.maxTotalWait else { return response }
            try await Task.sleep(for: delay)
            waited += delay
            attempt += 1
        }
    }

    /// How long to wait before trying again, nil when this answer is final.
    private func delay(after response: APIResponse, of request: APIRequest, attempt: Int) -> Duration? {
        let retryAfter = response.header("Retry-After").flatMap { Self.seconds(in: $0, now: response.receivedAt) }
        switch response.status {
        case 429: break
        case 503 where retryAfter != nil || request.isIdempotent: break
        default: return nil
        }
        if let retryAfter { return .milliseconds(Int(retryAfter * 1000)) }
        let backoff = policy.baseDelay * Int(1 << min(attempt - 1, 16))
        let capped = min(backoff, policy.maxDelay)
        return capped * Double.random(in: 0.5...1.0)
    }

    /// `Retry-After` in seconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
    static func seconds(in value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return Double(seconds) }
        return HTTPDate.parse(text).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// The bounds of `RetryStep`.
public struct RetryPolicy: Sendable {
    /// Sends in all, the first included.
    public var maxAttempts = 4
    /// The most time spent waiting between attempts, summed.
    public var maxTotalWait: Duration = .seconds(30)
    /// The first wait when the server names none; doubled each time, up to `maxDelay`.
    public var baseDelay: Duration = .milliseconds(500)
    public var maxDelay: Duration = .seconds(8)

    public init() {}

    /// One attempt, no waiting.
    public static let never: RetryPolicy = {
        var policy = RetryPolicy()
        policy.maxAttempts = 1
        return policy
    }()
}
