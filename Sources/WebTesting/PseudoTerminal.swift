public import Foundation

/// Drives a command through a pseudo-terminal, as a person typing would: python3's `pty`
/// module gives the child a controlling terminal (so `/dev/tty` opens and stdin is a
/// terminal), waits for each prompt, reads the terminal's ECHO flag at that moment, types the
/// answer, and reads the rest. For testing no-echo password prompts (`til login`,
/// `til-server users set-password`).
public enum PseudoTerminal {
    public struct Result: Decodable, Sendable {
        /// Everything the terminal showed, prompts included (lines end in `\r\n`).
        public var output: String
        public var status: Int32
        /// The ECHO flag as each prompt appeared, in order.
        public var echoAtPrompts: [Bool]
        /// The ECHO flag once the command ended (nil if the terminal was gone).
        public var echoAfter: Bool?
    }

    /// Runs `binary arguments`, typing each answer once its prompt appears.
    public static func run(
        _ binary: URL, _ arguments: [String], answers: [(prompt: String, text: String)], environment: [String: String]
    ) async throws -> Result {
        let answers = try String(decoding: JSONEncoder().encode(answers.map { [$0.prompt, $0.text] }), as: UTF8.self)
        return try await onThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", script, answers, binary.path] + arguments
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
        answers, binary, arguments = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3:]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(binary, [binary] + arguments)
        out, seen = b"", 0
        def read_until(marker, timeout=20):  # until marker shows after the prompts answered (None: the end)
            global out
            end = time.time() + timeout
            while (marker is None or marker not in out[seen:]) and time.time() < end:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    try:
                        chunk = os.read(fd, 1024)
                    except OSError:
                        return
                    if not chunk:
                        return
                    out += chunk
        echo_at_prompts = []
        for prompt, text in answers:
            read_until(prompt.encode())
            echo_at_prompts.append(bool(termios.tcgetattr(fd)[3] & termios.ECHO))
            found = out.find(prompt.encode(), seen)
            seen = len(out) if found < 0 else found + len(prompt.encode())
            os.write(fd, text.encode() + b"\n")
        read_until(None)
        _, status = os.waitpid(pid, 0)
        try:
            echo_after = bool(termios.tcgetattr(fd)[3] & termios.ECHO)
        except termios.error:
            echo_after = None
        print(json.dumps({"output": out.decode(errors="replace"), "status": os.waitstatus_to_exitcode(status),
                          "echoAtPrompts": echo_at_prompts, "echoAfter": echo_after}))
        """#
}
