import JSON
import SystemIO

extension KioskConfiguration {
    /// The largest configuration file read: every key documented is about
    /// 3 KB, and a reload (SIGHUP) parses it on the loop, so a runaway file
    /// (15 MB took 150 ms a reload, and a SIGHUP storm held `get` 0.8 s) is refused.
    public static let maximumFileSize = 1 << 20

    /// Reads and checks a configuration file; a bad one is one error listing every problem.
    public static func read(_ path: String) throws -> KioskConfiguration {
        // A file that cannot be read is a configuration mistake like any other (exit 2, not restarted).
        let text: String
        do { text = try FileContents.text(path, limit: maximumFileSize) } catch let error as ArgumentError { throw error } catch { throw ArgumentError("\(error)") }
        let (config, problems) = parse(text, name: path)
        guard problems.isEmpty else {
            throw ArgumentError(problems.joined(separator: "\n") + "\n\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        }
        return config
    }

    /// The file at `path` (none: the defaults) with the flags of `args` over it.
    public static func load(path: String?, flags args: ParsedArguments) throws -> KioskConfiguration {
        var config = try path.map(read) ?? KioskConfiguration()
        try config.applyFlags(args)
        // Checked again with the flags over the file: --output A,B with the file's one size is fine, two sizes are not.
        if let problem = config.outputProblems.first { throw ArgumentError(problem) }
        return config
    }

    /// Sets every key whose flag `args` gives; the error names the flag.
    public mutating func applyFlags(_ args: ParsedArguments) throws {
        for key in ConfigurationKey.all {
            guard let flag = key.flag, args.has(flag) else { continue }
            let text = key.flagTakesValue ? args.value(flag) ?? "" : "yes"
            do { try set(key.name, to: text) } catch let error as ConfigurationError {
                // "overhead.radius_nm: expected …" becomes "--radius 500: expected …".
                let reason = error.description.drop { $0 != ":" }.dropFirst().trimmed()
                throw ArgumentError("\(flag) \(text): \(reason)")
            }
        }
    }

    /// The `run` flags that set configuration keys, from the one table.
    public static var flags: [CommandSpec.Flag] {
        ConfigurationKey.all.compactMap { key in
            key.flag.map { CommandSpec.Flag($0, value: key.flagTakesValue ? key.value : nil, "\(key.help) (\(key.name); default \(key.defaultValue))") }
        }
    }
}

extension ConfigurationKey {
    /// Whether the flag takes a value (a yes/no key's flag is a switch that says yes).
    public var flagTakesValue: Bool { value != "yes|no" }
}
