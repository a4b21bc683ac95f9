import Glibc

/// Facts about the machine and process limits the server adapts to.
public enum System {
    /// Raises the soft open-file limit (often 1024) towards `count`, within the hard limit, so
    /// `maxConnections` can actually be reached instead of `accept` failing with EMFILE.
    static func raiseFileDescriptorLimit(toAtLeast count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
