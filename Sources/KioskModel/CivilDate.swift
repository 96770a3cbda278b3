/// A day of the proleptic Gregorian calendar, as people name it where the
/// kiosk stands. Counting days from the epoch both ways (H. Hinnant's
/// civil-from-days arithmetic) lets the night schedule step a day forward
/// or back without a calendar library.
public struct CivilDate: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// The day `n` days later (earlier when negative).
    public func adding(days n: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + n) }

    /// Seconds since the epoch of this day's midnight in UTC.
    public var utcMidnight: Double { Double(daysSinceEpoch) * 86_400 }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

/// How the kiosk's place keeps time: which day a moment falls on there, and
/// the moment a local clock time of a day names. The system's comes from the
/// C library (TZ, /etc/localtime, summer time included); a fixed offset
/// stands in for it in tests.
public struct LocalCalendar: Sendable {
    /// The local day of a moment (seconds since the epoch).
    public let date: @Sendable (Double) -> CivilDate
    /// The moment of `minutes` after local midnight on a day.
    public let moment: @Sendable (CivilDate, Int) -> Double

    public init(date: @escaping @Sendable (Double) -> CivilDate, moment: @escaping @Sendable (CivilDate, Int) -> Double) {
        self.date = date
        self.moment = moment
    }

    /// A place `seconds` east of UTC all year.
    public static func fixedOffset(_ seconds: Int) -> LocalCalendar {
        LocalCalendar(date: { CivilDate(daysSinceEpoch: Int(((($0 + Double(seconds)) / 86_400)).rounded(.down))) },
                      moment: { $0.utcMidnight + Double($1 * 60 - seconds) })
    }
}
