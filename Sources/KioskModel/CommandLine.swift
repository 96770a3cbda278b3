/// A command of the `radar-kiosk` tool: its name, what it does, and its flags.
public struct CommandSpec: Sendable {
    public struct Flag: Sendable {
        public let name: String
        public let value: String?      // placeholder for the value, nil for a switch
        public let help: String
        public let repeatable: Bool

        public init(_ name: String, value: String? = nil, repeatable: Bool = false, _ help: String) {
            self.name = name
            self.value = value
            self.help = help
            self.repeatable = repeatable
        }
    }

    public let name: String
    public let positional: String?     // e.g. "FILE.y4m"
    public let summary: String
    public let flags: [Flag]

    public init(_ name: String, positional: String? = nil, _ summary: String, flags: [Flag]) {
        self.name = name
        self.positional = positional
        self.summary = summary
        self.flags = flags
    }

    public var usageLine: String {
        var parts = ["radar-kiosk", name]
        if let positional { parts.append(positional) }
        for f in flags {
            let item = f.value.map { "\(f.name) \($0)" } ?? f.name
            parts.append("[\(item)]" + (f.repeatable ? "..." : ""))
        }
        return "usage: " + parts.joined(separator: " ")
    }

    public var help: String {
        var lines = [usageLine, "", summary]
        if !flags.isEmpty {
            lines.append("")
            let width = flags.map { ($0.value.map { "\($0)" } ?? "").count + $0.name.count + 1 }.max() ?? 0
            for f in flags {
                let left = f.value.map { "\(f.name) \($0)" } ?? f.name
                lines.append("  " + left.padding(to: width + 2) + f.help)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// A usage error: printed as one line plus the command's usage line, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public let message: String
    public let usage: String
    public var description: String { message }
}

/// Parsed flags of one command.
public struct ParsedArguments {
    public var values: [String: [String]] = [:]
    public var switches: Set<String> = []
    public var positional: [String] = []

    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }
    public func has(_ name: String) -> Bool { switches.contains(name) || values[name] != nil }

    public static func parse(_ args: [String], for spec: CommandSpec) throws -> ParsedArguments {
        var result = ParsedArguments()
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg.hasPrefix("--") {
                var name = arg
                var inline: String?
                if let eq = arg.firstIndex(of: "=") {
                    name = String(arg[..<eq])
                    inline = String(arg[arg.index(after: eq)...])
                }
                guard let flag = spec.flags.first(where: { $0.name == name }) else {
                    throw UsageError(message: "radar-kiosk \(spec.name): unknown flag \(name)", usage: spec.usageLine)
                }
                if flag.value == nil {
                    if inline != nil { throw UsageError(message: "radar-kiosk \(spec.name): \(name) takes no value", usage: spec.usageLine) }
                    result.switches.insert(name)
                } else {
                    let v: String
                    if let inline { v = inline } else {
                        i += 1
                        guard i < args.count else {
                            throw UsageError(message: "radar-kiosk \(spec.name): \(name) needs a value (\(flag.value!))", usage: spec.usageLine)
                        }
                        v = args[i]
                    }
                    if !flag.repeatable && result.values[name] != nil {
                        throw UsageError(message: "radar-kiosk \(spec.name): \(name) given twice", usage: spec.usageLine)
                    }
                    result.values[name, default: []].append(v)
                }
            } else {
                guard spec.positional != nil else {
                    throw UsageError(message: "radar-kiosk \(spec.name): unexpected argument '\(arg)'", usage: spec.usageLine)
                }
                result.positional.append(arg)
            }
            i += 1
        }
        return result
    }
}

extension ParsedArguments {
    /// `--size WxH` (16...8192 each), or `default` when absent.
    public func size(_ flag: String = "--size", default fallback: String) throws -> PixelSize {
        try parseSize(value(flag) ?? fallback, flag: flag)
    }

    /// A whole number in `range`, or `default` when absent.
    public func integer(_ flag: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = value(flag) else { return fallback }
        guard let v = Int(text), range.contains(v) else {
            throw ArgumentError("\(flag) \(text): expected a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    /// A number in `range`, or `default` when absent.
    public func number(_ flag: String, default fallback: Double, range: ClosedRange<Double>) throws -> Double {
        guard let text = value(flag) else { return fallback }
        guard let v = ConfigurationKey.decimal(text), range.contains(v) else {
            throw ArgumentError("\(flag) \(text): expected a number in \(range.lowerBound.clean)...\(range.upperBound.clean)")
        }
        return v
    }

    /// A value the command cannot do without.
    public func required(_ flag: String, _ form: String) throws -> String {
        guard let v = value(flag) else { throw ArgumentError("\(flag) \(form) is required") }
        return v
    }

    /// The one positional argument, e.g. `check-config FILE`.
    public func onlyPositional(_ command: String, _ form: String) throws -> String {
        guard let path = positional.first, positional.count == 1 else { throw ArgumentError("\(command) needs one \(form)") }
        return path
    }
}

/// `WxH`, e.g. `1920x1080`, each 16...8192; the error names the flag.
public func parseSize(_ text: String, flag: String = "--size") throws -> PixelSize {
    do { return try ConfigurationKey.pixelSize(text, flag) } catch {
        throw ArgumentError("\(flag) \(text): expected WIDTHxHEIGHT, each 16...8192, e.g. 1920x1080")
    }
}

/// A bad flag value: one line naming the flag and what is wrong.
public struct ArgumentError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension String {
    public func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
