#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the person at the terminal — `/dev/tty`, not stdin, so a pipe cannot answer by
/// accident and nothing lands in stdout. Secrets are read with echo off (termios), and echo
/// comes back even when Ctrl-C interrupts the prompt. Shared by `til` and `til-server`.
public enum Prompt {
    /// True when stdin is a terminal: a person may be there to answer.
    public static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// One line typed at the terminal, without its newline; without a terminal, a usage
    /// error that names the option to use instead.
    public static func ask(
        _ question: String, secret: Bool = false, otherwise option: String = "--password-stdin"
    ) throws(PromptError) -> String {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { throw PromptError("No terminal to ask on; use \(option).") }
        defer { close(tty) }
        guard secret else {
            say(question, to: tty)
            return try readLine(tty, otherwise: "No answer at the prompt.", what: "the answer")
        }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { throw PromptError("Cannot turn the terminal's echo off; use \(option).") }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)  // the Enter still moves to the next line
        EchoRestorer.arm(tty, saved)
        tcsetattr(tty, TCSAFLUSH, &quiet)  // echo off before the prompt shows: nothing typed is seen
        defer {
            tcsetattr(tty, TCSANOW, &saved)
            EchoRestorer.disarm()
        }
        say(question, to: tty)
        return try readLine(tty, otherwise: "No answer at the prompt.", what: "the answer")
    }

    /// A secret asked twice, refused unless both match.
    public static func newSecret(_ question: String) throws(PromptError) -> String {
        let first = try ask(question, secret: true)
        guard try ask("Repeat it: ", secret: true) == first else { throw PromptError("The two passwords differ.") }
        return first
    }

    /// The next line of stdin (`--password-stdin`), without its line ending.
    /// Read byte by byte from the descriptor (no buffering, so a second call gets the next
    /// line), and refused unless it is UTF-8: a replacement character in place of a bad byte
    /// would make a password nobody can type.
    public static func stdinLine(_ what: String) throws(PromptError) -> String {
        try readLine(STDIN_FILENO, otherwise: "Expected \(what) on stdin.", what: what)
    }

    private static func say(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// One line from `fd` without its line ending; `empty` when nothing came, an error naming
    /// `what` when it is not UTF-8.
    private static func readLine(_ fd: Int32, otherwise empty: String, what: String) throws(PromptError) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else {
                guard !bytes.isEmpty else { throw PromptError(empty) }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            guard bytes.count < 4096 else { throw PromptError("That line is too long.") }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let line = String(validating: bytes, as: UTF8.self) else {
            throw PromptError("\(what.prefix(1).uppercased() + what.dropFirst()) is not UTF-8 text.")
        }
        return line
    }
}

/// Why a prompt got no answer (no terminal, or no line on stdin): a usage mistake, which
/// names the option to use instead.
public struct PromptError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Puts the terminal's echo back if SIGINT or SIGTERM arrives while a secret is typed.
///
/// A signal handler is a C function: it cannot capture, so the saved terminal state sits in
/// a global. It is written only by the prompting thread before the handler is installed and
/// after it is removed, and read only by the handler (which calls only async-signal-safe
/// `tcsetattr`, `signal`, `raise`): the one deliberately unsynchronised spot in the
/// module.
private enum EchoRestorer {
    nonisolated(unsafe) static var terminal: (fd: Int32, state: termios)?

    static func arm(_ fd: Int32, _ state: termios) {
        terminal = (fd, state)
        for number in [SIGINT, SIGTERM] { _ = signal(number, restoreAndDie) }
    }

    static func disarm() {
        for number in [SIGINT, SIGTERM] { _ = signal(number, SIG_DFL) }
        terminal = nil
    }
}

private func restoreAndDie(_ number: Int32) {
    if var saved = EchoRestorer.terminal {
        tcsetattr(saved.fd, TCSANOW, &saved.state)
    }
    _ = signal(number, SIG_DFL)
    raise(number)
}
