// libFuzzer entry point for the HTTP request parser (see scripts/fuzz-parser.sh, `make fuzz`).
// Compiled together with the parser's sources into one module, outside the package build.

/// Feeds the input to a parser twice — whole, and split at a position taken from its first
/// byte — draining requests until the parser wants more bytes or reports an error. Any crash,
/// trap or sanitizer report is a finding; both feeds must also agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var limits = HTTPServerLimits()
    limits.maxRequestLineBytes = 256
    limits.maxHeaderBytes = 512
    limits.maxHeaderCount = 16
    limits.maxBodyBytes = 256  // small enough for the raw chunked-body bound to be reached

    let whole = drain(limits: limits, chunks: [bytes[...]])
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    let pieces = drain(limits: limits, chunks: [bytes[..<split], bytes[split...]])
    precondition(whole == pieces, "parse depends on how the bytes were split")
    return 0
}

/// The requests (method, target, body size) and the final error, as a comparable summary.
private func drain(limits: HTTPServerLimits, chunks: [ArraySlice<UInt8>]) -> [String] {
    var parser = HTTPRequestParser(limits: limits)
    var outcome: [String] = []
    for chunk in chunks {
        parser.append(contentsOf: chunk)
        do {
            while let request = try parser.next() {
                outcome.append("\(request.head.method.rawValue) \(request.head.target) \(request.head.headers.count) \(request.body.count)")
                _ = request.head.keepAlive
                _ = parser.takeContinueSignal()
            }
        } catch {
            outcome.append("error \(error.status.code)")
            return outcome
        }
    }
    return outcome
}
