import Foundation
import WebTesting

/// Drives `til login` through a pseudo-terminal, as a person typing would: python3's `pty`
/// module gives the child a controlling terminal (so `/dev/tty` opens), waits for the prompt,
/// reads the terminal's ECHO flag at that moment, types the password, and reads the rest.
enum PseudoTerminal {
    struct Result: Decodable {
        var output: String
        var status: Int32
        var echoAtPrompt: Bool
        var echoAfter: Bool?
    }

    static func login(binary: URL, username: String, password: String, environment: [String: String]) async throws -> Result {
        try await onThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, binary.path, username, password]
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return try JSONDecoder().decode(Result.self, from: data)
        }
    }

    private static let script = #"""
        import json, os, pty, select, sys, termios, time
        binary, user, password = sys.argv[1:4]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(binary, [binary, "login", "--username", user])
        out = b""
        def read_until(marker, timeout=20):
            global out
            end = time.time() + timeout
            while (marker is None or marker not in out) and time.time() < end:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    try:
                        chunk = os.read(fd, 1024)
                    except OSError:
                        return
                    if not chunk:
                        return
                    out += chunk
        read_until(b"Password: ")
        echo_at_prompt = bool(termios.tcgetattr(fd)[3] & termios.ECHO)
        os.write(fd, password.encode() + b"\n")
        read_until(None)
        _, status = os.waitpid(pid, 0)
        try:
            echo_after = bool(termios.tcgetattr(fd)[3] & termios.ECHO)
        except termios.error:
            echo_after = None
        print(json.dumps({"output": out.decode(errors="replace"), "status": os.waitstatus_to_exitcode(status),
                          "echoAtPrompt": echo_at_prompt, "echoAfter": echo_after}))
        """#
}
