import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real network: Foundation's `URLSession` (FoundationNetworking on Linux). Ephemeral —
/// no cookies, no cache: tokens are never written anywhere by the transport. A cancelled task
/// cancels its request and throws `CancellationError`.
struct URLSessionTransport: Transport {
    let session: URLSession
    let timeout: TimeInterval

    init(timeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    func send(_ request: APIRequest) async throws -> APIResponse {
        guard let url = request.url else { throw TILError.invalidArgument("The request has no URL.") }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else { throw TILError.invalidResponse("Not an HTTP answer.") }
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
            return APIResponse(status: http.statusCode, headers: headers, body: data, url: url)
        } catch let error as URLError where error.code == .cancelled || Task.isCancelled {
            throw CancellationError()
        } catch let error as URLError {
            throw TILError.transport("\(url.host ?? "server"): \(error.localizedDescription)")
        }
    }
}
