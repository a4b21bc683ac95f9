import Crypt
import Foundation
import Glibc

/// Development's `SECRET_KEY` in a file: read when it exists, created once otherwise (its
/// directory 0700, the file 0600; two processes starting together keep one key).
struct SecretKeyFile {
    let path: String

    func loadOrCreate() throws(ConfigurationError) -> SecretKey {
        if let existing = try read() { return existing }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {  // an existing folder is fine; open below reports the rest
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // Written whole under a name of this process, then linked into place: a reader never
        // sees a half-written key, and of two processes starting together one link wins.
        let key = SecretKey.random()
        let temporary = "\(path).\(getpid()).\(Base64URL.encode(SecureRandom.bytes(count: 6)))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        defer { unlink(temporary) }
        let text = Array((key.text + "\n").utf8)
        let written = write(descriptor, text, text.count)
        close(descriptor)
        guard written == text.count else { throw failure("cannot write \(temporary)") }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST, let raced = try read() { return raced }
            throw failure("cannot create \(path)")
        }
        return key
    }

    private func failure(_ what: String) -> ConfigurationError {
        ConfigurationError("\(what) for the development SECRET_KEY: \(String(cString: strerror(errno))); set SECRET_KEY instead.")
    }

    /// The key in the file; nil when there is none yet (or it is still being written).
    private func read() throws(ConfigurationError) -> SecretKey? {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
        guard let key = SecretKey(text: String(decoding: data, as: UTF8.self)) else {
            throw ConfigurationError("\(path) does not hold a SECRET_KEY (\(EnvironmentVariable.secretKey.declaration.accepts)); remove it to have one generated.")
        }
        return key
    }
}
