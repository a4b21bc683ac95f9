import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects each data task's response and body, and resumes its waiting caller when the task
/// completes. Follows no redirect and answers no authentication challenge.
final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Continuation = CheckedContinuation<(Data, HTTPURLResponse), any Error>

    private struct Transfer {
        var continuation: Continuation
        var body = Data()
        /// An authentication challenge was declined: the answer that raised it is the result.
        var declinedChallenge = false
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    func begin(_ task: URLSessionTask, _ continuation: Continuation) {
        transfers.withLock { $0[task.taskIdentifier] = Transfer(continuation: continuation) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let http = task.response as? HTTPURLResponse
        if let http, error == nil || transfer.declinedChallenge {
            transfer.continuation.resume(returning: (transfer.body, http))
        } else {
            transfer.continuation.resume(throwing: error ?? URLError(.badServerResponse))
        }
    }

    /// TIL's API never redirects, and a redirect followed would take the request's
    /// `Authorization` header with it — FoundationNetworking copies it even to another host and
    /// port. So none is followed: the task ends with the redirect itself as its answer, which
    /// `APIClient` reports as `TILError.redirected`.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// HTTP authentication is this client's own business (it sends its `Authorization`
    /// headers itself): a server's challenge is not answered by Foundation. On Linux the
    /// challenge is declined and the 401 handed on (see `URLSessionTransport`); elsewhere the
    /// default handling, with no stored credentials, does that already.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        let method = challenge.protectionSpace.authenticationMethod
        if challenge.proposedCredential == nil, method == NSURLAuthenticationMethodHTTPBasic || method == NSURLAuthenticationMethodHTTPDigest {
            transfers.withLock { $0[task.taskIdentifier]?.declinedChallenge = true }
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        #endif
        completionHandler(.performDefaultHandling, nil)
    }
}
