import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real network: Foundation's `URLSession` (FoundationNetworking on Linux). Ephemeral —
/// no cookies, no cache: the transport never writes a token anywhere. A cancelled task
/// cancels its request and throws `CancellationError`.
///
/// Requests run as delegate-driven data tasks rather than through `data(for:)`, because on
/// Linux a 401 with `WWW-Authenticate: Basic` (a failed login) raises a challenge that, left to
/// the default handling with no credential, never completes the task (swift-corelibs-foundation
/// #5456, fixed after Swift 6.3.1). `TransferDelegate` declines such challenges and answers the
/// 401 that had already arrived.
struct URLSessionTransport: Transport {
    private let owner: SessionOwner
    let timeout: TimeInterval

    init(timeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        owner = SessionOwner(configuration: configuration)
        self.timeout = timeout
    }

    func send(_ request: APIRequest) async throws -> APIResponse {
        guard let url = request.url else { throw TILError.invalidArgument("The request has no URL.") }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let task = owner.session.dataTask(with: urlRequest)
        do {
            let (body, http) = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    owner.delegate.begin(task, continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
            return APIResponse(status: http.statusCode, headers: headers, body: body, url: url)
        } catch let error as URLError where error.code == .cancelled || Task.isCancelled {
            throw CancellationError()
        } catch let error as URLError {
            throw TILError.transport("\(url.host ?? "server"): \(error.localizedDescription)")
        }
    }
}

/// Owns the session and ends it with the last client that uses it (a session keeps its
/// delegate alive until invalidated).
private final class SessionOwner: Sendable {
    let delegate = TransferDelegate()
    let session: URLSession

    init(configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}
