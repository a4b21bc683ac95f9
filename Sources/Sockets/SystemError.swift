import Glibc

/// A failed system call: the call's name and `errno`, with the C library's message.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let errno: Int32

    /// The error of the call that just failed (reads `errno` now).
    public init(_ call: String) {
        self.init(call, errno: Glibc.errno)
    }

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String {
        "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
