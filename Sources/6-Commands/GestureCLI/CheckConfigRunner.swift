import GestureConfiguration

/// `gestured check-config FILE`: checks a configuration; prints a short summary, or the
/// first mistake as `FILE:LINE:COLUMN: message` with status 2.
public struct CheckConfigRunner: Sendable {
    public var path: String?
    public var printDefault: Bool

    public init(path: String?, printDefault: Bool) {
        self.path = path
        self.printDefault = printDefault
    }

    public func run(output: inout some CommandOutput) -> Int32 {
        if printDefault {
            output.write(Configuration.defaultYAML())
            return CommandStatus.success
        }
        guard let path else {
            output.warn("check-config needs a configuration file (or --print-default for a starting point)\n")
            return CommandStatus.badInput
        }
        do throws(ConfigurationError) {
            output.write(try Configuration.load(path: path).summary)
            return CommandStatus.success
        } catch {
            output.warn("\(error)\n")
            return CommandStatus.badInput
        }
    }
}
