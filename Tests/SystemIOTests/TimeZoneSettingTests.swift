import Testing
import SystemIO

/// A TZ the C library would quietly read as UTC is named; one it can use is not.
@Suite struct TimeZoneSettingTests {
    @Test func zonesAndRulesTheCLibraryUsesPass() {
        for tz in [nil, "", "Europe/London", ":Europe/London", "UTC", "/usr/share/zoneinfo/Asia/Tokyo",
                   "GMT0BST,M3.5.0/1,M10.5.0", "EST5EDT", "<+03>-3", "CET-1CEST,M3.5.0,M10.5.0/3"] {
            #expect(TimeZoneSetting.problem(tz) == nil, "\(tz ?? "unset")")
        }
    }

    @Test func whatReadsAsUTCIsNamed() {
        for tz in ["Europe/Lndon", ":Europe/Lndon", "garbage", "/etc/passwd", "/dev/zero", "/tmp", "$(reboot)"] {
            #expect(TimeZoneSetting.problem(tz)?.hasSuffix("local time reads as UTC") == true, "\(tz)")
        }
        #expect(TimeZoneSetting.problem("Europe/Lndon")
            == "TZ 'Europe/Lndon' is neither a time zone on this system (/usr/share/zoneinfo) nor a rule like GMT0BST,M3.5.0/1,M10.5.0: local time reads as UTC")
        #expect(TimeZoneSetting.problem("Europe/London", zoneDirectory: "/nonexistent") != nil, "the zone directory is where zones are looked for")
        #expect(TimeZoneSetting.problem("UTC\u{1B}[2J")?.contains("\u{1B}") == false, "cleaned for the log")
    }
}
