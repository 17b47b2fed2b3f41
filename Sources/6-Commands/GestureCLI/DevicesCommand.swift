import ArgumentParser
import DeviceQuirks
import GestureRuntime

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the touchscreens and touchpads, what libinput's quirks say of each, and whether you may read them.",
        discussion: """
            For each touch device udev knows: node, name, kind, seat, protocol and slots, size \
            in millimetres (or that it reports none), resolution, axis ranges, the quirks \
            libinput's files give it (each with its section and file), and whether this user \
            may open it — and if not, what would fix that. Then the Wayland compositor running, \
            and how an owned touchscreen's touches end for its apps there (end-owned-touches: \
            auto: a lift where the compositor drops libinput's cancel). Exits 1 when there is \
            no device.

            Examples:
              gestured devices
              gestured devices --json | jq .node
            """
    )

    @Flag(name: .long, help: "Print JSON, one object per device and line.")
    var json = false

    @OptionGroup var quirkOptions: QuirksOptions

    func validate() throws { try quirkOptions.validate() }

    func run() throws {
        var out = ProcessOutput()
        var runner = DevicesRunner(json: json)
        runner.quirks = quirkOptions.database(warningsTo: &out)
        runner.dmi = quirkOptions.dmi ?? QuirksDatabase.systemDMI()
        runner.deviceTree = QuirksDatabase.systemDeviceTree()
        runner.compositor = { RunningCompositor.find() }
        let status = runner.run(output: &out)
        out.flush()
        if status != CommandStatus.success { throw ExitCode(status) }
    }
}
