#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GesturedService
import SystemLoop

struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Print the gesture events a running service streams (JSON lines).",
        discussion: """
            Example:
              gestured listen --socket /run/gestured/gestured.sock
            """
    )

    @Option(name: .long, help: ArgumentHelp("The service's socket (default: as gestured run).", valueName: "PATH"))
    var socket: String?

    func run() throws {
        let path = socket ?? GestureService.defaultSocketPath(environment: ProcessInfoEnvironment.current)
        let fd: Int32
        do throws(SystemError) {
            fd = try UnixSocket.connect(to: path)
        } catch {
            var err = ProcessOutput()
            err.warn("cannot connect to \(path): \(error.message) (is gestured running? is this user in its socket group?)\n")
            throw ExitCode(CommandStatus.badInput)
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            var written = 0
            while written < n {
                let w = buffer[written..<n].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
                if w <= 0 { return }
                written += w
            }
        }
    }
}
