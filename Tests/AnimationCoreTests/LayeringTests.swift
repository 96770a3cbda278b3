import Testing

/// The animation core must build without Foundation (only the C library for
/// math), so that an Apple app could share it.
@Suite struct LayeringTests {
    static let root = String(#filePath.prefix(upTo: #filePath.range(of: "/Tests/")!.lowerBound))

    @Test(arguments: ["AnimationCore", "Raster"])
    func moduleImportsNoFoundation(module: String) throws {
        let dir = Self.root + "/Sources/" + module
        let files = try listSwiftFiles(dir)
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                #expect(!trimmed.hasPrefix("import Foundation") && !trimmed.hasPrefix("import FoundationEssentials")
                        && !trimmed.hasPrefix("@_exported import Foundation"), "\(file): \(trimmed)")
            }
        }
    }

    func listSwiftFiles(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".swift") }.map { dir + "/" + $0 }
    }
}

import Foundation
