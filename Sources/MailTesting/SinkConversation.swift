import Foundation

/// The server side of one SMTP connection (RFC 5321, RFC 3207 STARTTLS, RFC 4954 AUTH), as
/// far as a test needs it: commands in any case, one transaction after another, anything
/// unknown answered 502. Every accepted message goes to `sink.keep`.
struct SinkConversation {
    let stream: SinkStream
    let tls: SinkTLSContext?
    let sink: MailSink

    private struct Transaction {
        var sender: String?
        var parameters: [String] = []
        var recipients: [String] = []
    }

    func run() {
        var transaction = Transaction()
        var credentials: (username: String, password: String)?
        if sink.implicitTLS {
            guard let tls, stream.startTLS(tls) else { return }
        }
        stream.write("220 mail-sink ESMTP\r\n")
        while let line = stream.readLine() {
            let text = String(decoding: line, as: UTF8.self)
            let verb = text.prefix { $0 != " " }.uppercased()
            let argument = text.drop { $0 != " " }.dropFirst()
            switch verb {
            case "EHLO":
                var lines = ["mail-sink", "8BITMIME", "SMTPUTF8", "SIZE 10485760"]
                if tls != nil, !stream.isTLS { lines.append("STARTTLS") }  // never after implicit TLS: isTLS
                lines.append("AUTH PLAIN LOGIN")
                stream.write(lines.enumerated().map { "250\($0.offset == lines.count - 1 ? " " : "-")\($0.element)\r\n" }.joined())
            case "HELO": stream.write("250 mail-sink\r\n")
            case "STARTTLS":
                guard let tls, !stream.isTLS else {
                    stream.write("502 no STARTTLS here\r\n")
                    continue
                }
                stream.write("220 go ahead\r\n")
                guard stream.startTLS(tls) else { return }  // the client refused the certificate
                transaction = Transaction()
                credentials = nil
            case "AUTH":
                guard let given = authenticate(String(argument)) else {
                    stream.write("535 authentication failed\r\n")
                    continue
                }
                credentials = given
                stream.write("235 authenticated\r\n")
            case "MAIL":
                let (address, parameters) = Self.path(after: "FROM:", in: String(argument))
                transaction = Transaction(sender: address, parameters: parameters)
                stream.write("250 sender ok\r\n")
            case "RCPT":
                guard transaction.sender != nil else {
                    stream.write("503 MAIL first\r\n")
                    continue
                }
                if case .refuse(let code, let text) = sink.recipientReply() {
                    stream.write("\(code) \(text)\r\n")
                    continue
                }
                transaction.recipients.append(Self.path(after: "TO:", in: String(argument)).address)
                stream.write("250 recipient ok\r\n")
            case "DATA":
                guard let sender = transaction.sender, !transaction.recipients.isEmpty else {
                    stream.write("503 no valid recipients\r\n")
                    continue
                }
                stream.write("354 end with .\r\n")
                guard let data = readData() else { return }
                let received = ReceivedMail(
                    sender: sender, recipients: transaction.recipients, mailParameters: transaction.parameters, data: data,
                    overTLS: stream.isTLS, username: credentials?.username, password: credentials?.password)
                sink.noteAttempt(received)
                switch sink.nextReply() {
                case .accept:
                    sink.keep(received)
                    stream.write("250 queued\r\n")
                case .refuse(let code, let text):
                    stream.write("\(code) \(text)\r\n")
                case .hang:
                    stream.drainUntilClosed()
                    return
                }
                transaction = Transaction()
            case "RSET":
                transaction = Transaction()
                stream.write("250 reset\r\n")
            case "NOOP": stream.write("250 ok\r\n")
            case "QUIT":
                stream.write("221 bye\r\n")
                return
            default: stream.write("502 unknown command\r\n")
            }
        }
    }

    /// The lines up to the lone `.`, dot-stuffing undone (RFC 5321 §4.5.2), CRLF kept.
    private func readData() -> [UInt8]? {
        var data: [UInt8] = []
        while var line = stream.readLine() {
            if line == [0x2E] { return data }
            if line.first == 0x2E { line.removeFirst() }
            data += line + [0x0D, 0x0A]
        }
        return nil
    }

    /// `AUTH PLAIN <base64>` or `AUTH PLAIN` / `AUTH LOGIN` with the answers on later lines.
    private func authenticate(_ argument: String) -> (username: String, password: String)? {
        let parts = argument.split(separator: " ").map(String.init)
        switch parts.first?.uppercased() {
        case "PLAIN":
            var encoded = parts.count > 1 ? parts[1] : nil
            if encoded == nil {
                stream.write("334 \r\n")
                encoded = stream.readLine().map { String(decoding: $0, as: UTF8.self) }
            }
            guard let encoded, let decoded = Data(base64Encoded: encoded) else { return nil }
            let fields = decoded.split(separator: 0, omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            return (String(decoding: fields[1], as: UTF8.self), String(decoding: fields[2], as: UTF8.self))
        case "LOGIN":
            stream.write("334 VXNlcm5hbWU6\r\n")
            guard let user = stream.readLine().flatMap({ Data(base64Encoded: Data($0)) }) else { return nil }
            stream.write("334 UGFzc3dvcmQ6\r\n")
            guard let password = stream.readLine().flatMap({ Data(base64Encoded: Data($0)) }) else { return nil }
            return (String(decoding: user, as: UTF8.self), String(decoding: password, as: UTF8.self))
        default:
            return nil
        }
    }

    /// `FROM:<a@b> SMTPUTF8` → ("a@b", ["SMTPUTF8"]).
    private static func path(after keyword: String, in argument: String) -> (address: String, parameters: [String]) {
        var rest = Substring(argument)
        if rest.uppercased().hasPrefix(keyword) { rest = rest.dropFirst(keyword.count) }
        rest = rest.drop { $0 == " " }
        guard rest.first == "<", let close = rest.firstIndex(of: ">") else {
            let words = rest.split(separator: " ").map(String.init)
            return (words.first ?? "", Array(words.dropFirst()))
        }
        let address = String(rest[rest.index(after: rest.startIndex)..<close])
        return (address, rest[rest.index(after: close)...].split(separator: " ").map(String.init))
    }
}
