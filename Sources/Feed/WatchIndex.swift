/// A watch list arranged for looking up: one set per kind of entry, so an
/// aircraft is matched in a few hash lookups however long the list is (a
/// spotter's list of every military hex block runs to hundreds of thousands
/// of lines, and every candidate of every snapshot is matched on the loop).
struct WatchIndex: Equatable, Sendable {
    private var addresses: Set<String> = []
    private var registrations: Set<String> = []
    private var types: Set<String> = []
    private var callsignPrefixes: Set<String> = []
    /// The lengths of the callsign prefixes, shortest first: a callsign is
    /// looked up by each of its prefixes of these lengths only.
    private var prefixLengths: [Int] = []

    init(_ entries: [AlertRules.WatchEntry]) {
        for entry in entries {
            switch entry {
            case let .address(hex): addresses.insert(hex)
            case let .registration(reg): registrations.insert(reg)
            case let .type(type): types.insert(type)
            case let .callsignPrefix(prefix): callsignPrefixes.insert(prefix)
            }
        }
        prefixLengths = Set(callsignPrefixes.map(\.count)).sorted()
    }

    /// Whether any entry names `r`; the entries are upper case, as the list's parser leaves them.
    func matches(_ r: AircraftReport) -> Bool {
        if !addresses.isEmpty, addresses.contains(r.hex.uppercased()) { return true }
        if !registrations.isEmpty, let reg = r.registration, registrations.contains(reg.uppercased()) { return true }
        if !types.isEmpty, let type = r.typeCode, types.contains(type.uppercased()) { return true }
        if !callsignPrefixes.isEmpty, let callsign = r.callsign?.uppercased() {
            for length in prefixLengths {
                guard length <= callsign.count else { break }
                if callsignPrefixes.contains(String(callsign.prefix(length))) { return true }
            }
        }
        return false
    }
}
