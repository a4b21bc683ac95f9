import CCurl
import Glibc
import Synchronization

/// Lets another thread stop a libcurl conversation at once, wherever it waits: the sockets
/// libcurl opens are noted here (`CURLOPT_SOCKOPTFUNCTION`, forgotten by
/// `CURLOPT_CLOSESOCKETFUNCTION` before they close), and `abort()` shuts them down, which
/// wakes libcurl's wait for a reply with an error. The progress callback covers the moments
/// without a socket (resolving, between two steps). A server shutting down uses it not to
/// wait out a slow relay.
final class ConnectionWatch: Sendable {
    private struct State {
        var sockets: Set<Int32> = []
        var aborted = false
    }

    private let state = Mutex(State())

    var isAborted: Bool { state.withLock { $0.aborted } }

    /// From now on every conversation fails with `.cancelled`, the one under way included.
    func abort() {
        state.withLock { state in
            state.aborted = true
            // Under the lock: a socket cannot be closed (and its number reused) meanwhile.
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Points `handle`'s socket and progress callbacks at this watch, which must outlive it.
    func install(on handle: UnsafeMutableRawPointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_setopt_pointer(handle, CURLOPT_SOCKOPTDATA, context)
        _ = ccurl_setopt_sockopt_function(handle, Self.opened)
        _ = ccurl_setopt_pointer(handle, CURLOPT_CLOSESOCKETDATA, context)
        _ = ccurl_setopt_closesocket_function(handle, Self.closing)
        _ = ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
        _ = ccurl_setopt_progress_function(handle, Self.progress)
    }

    private static func watch(_ context: UnsafeMutableRawPointer?) -> ConnectionWatch? {
        context.map { Unmanaged<ConnectionWatch>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let opened: curl_sockopt_callback = { context, socket, _ in
        guard let watch = watch(context) else { return Int32(CURL_SOCKOPT_OK) }
        let aborted = watch.state.withLock { state in
            state.sockets.insert(socket)
            return state.aborted
        }
        return Int32(aborted ? CURL_SOCKOPT_ERROR : CURL_SOCKOPT_OK)
    }

    private static let closing: curl_closesocket_callback = { context, socket in
        watch(context)?.state.withLock { _ = $0.sockets.remove(socket) }
        return close(socket)
    }

    /// Non-zero aborts the transfer.
    private static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
        (watch(context)?.isAborted ?? false) ? 1 : 0
    }
}
