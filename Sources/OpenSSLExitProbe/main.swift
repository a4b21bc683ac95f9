// OpenSSLExitProbe [skip]: whether OpenSSL still works when the process's last exit handler
// runs, with `OpenSSLExitCleanup.skip()` called first (`skip`) or not. Run by CryptTests.
//
// Exit handlers run in the reverse order of their registration, so the one registered here,
// before anything initialises OpenSSL, runs after OpenSSL's own `OPENSSL_cleanup`, if OpenSSL
// registered it: it draws random bytes and hashes them, as a thread still running at exit could.
// With OpenSSL's state torn down that crashes (or stops with OpenSSL's error); else it prints
// one line and the process exits 0.
import Crypt
import Glibc

atexit {
    let digest = SHA256.hash(SecureRandom.bytes(count: 32))
    let line = "OpenSSL still works after every exit handler (\(digest.count)-byte digest)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
}
if CommandLine.arguments.dropFirst().first == "skip" {
    OpenSSLExitCleanup.skip()
}
_ = SecureRandom.bytes(count: 16)  // OpenSSL initialises here, and registers its exit handler unless skipped
exit(0)
