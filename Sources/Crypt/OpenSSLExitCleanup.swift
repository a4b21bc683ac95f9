import COpenSSL

/// OpenSSL's teardown at `exit()`, turned off for the whole process.
///
/// By default OpenSSL registers `OPENSSL_cleanup` with `atexit`, and that handler assumes every
/// other thread has stopped: it frees each thread's OpenSSL state (the per-thread handler lists,
/// random generators, error queues) without waiting. A server's threads never have all stopped.
/// `til-server users set-password` stops the database client's event loops (which used OpenSSL
/// for SCRAM) and returns at once, so a loop thread running its own OpenSSL thread-exit cleanup
/// can meet the exit handler freeing the same lists: glibc's "double free or corruption
/// (fasttop)", seen once in CI after the command's work was done. Idle libdispatch workers that
/// hashed something may exit at any moment too. The memory goes back to the system with the
/// process anyway; OpenSSL documents `OPENSSL_INIT_NO_ATEXIT` for this.
public enum OpenSSLExitCleanup {
    /// Tells OpenSSL not to register its exit handler. Call it first thing in `main`, before
    /// anything uses OpenSSL: the first initialisation decides, later ones cannot change it.
    public static func skip() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
