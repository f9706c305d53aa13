import Foundation

/// The cookie date parser of RFC 6265 section 5.1.1: lenient about the format (RFC 1123, RFC 850 and
/// asctime dates, dashes or spaces, any order), strict about the values. No `DateFormatter`, no locale.
enum CookieDate {
    /// The date `text` names, in UTC, or `nil` when a part is missing or out of range.
    static func parse(_ text: String) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: text) {
            if time == nil, let found = Self.time(token) {
                time = found
            } else if day == nil, let found = number(token, digits: 1...2) {
                day = found
            } else if month == nil, let found = Self.month(token) {
                month = found
            } else if year == nil, let found = number(token, digits: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, (1...daysIn(month: month, year: year)).contains(day),
              time.hour <= 23, time.minute <= 59, time.second <= 59
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second))
    }

    /// Runs of non-delimiter bytes (delimiters: tab, space to `/`, `;` to `@`, `[` to `` ` ``, `{` to `~`).
    private static func tokens(of text: String) -> [Substring.UTF8View] {
        func isDelimiter(_ byte: UInt8) -> Bool {
            byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
                || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
        }
        return Substring(text).utf8.split(whereSeparator: isDelimiter)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// The value of a token that starts with `digits` digits, followed by nothing or a non-digit.
    private static func number(_ token: Substring.UTF8View, digits: ClosedRange<Int>) -> Int? {
        let run = token.prefix(while: isDigit)
        guard digits.contains(run.count) else { return nil }
        return run.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `h:m:s` with one or two digits each, followed by nothing or a non-digit.
    private static func time(_ token: Substring.UTF8View) -> (hour: Int, minute: Int, second: Int)? {
        var rest = token[...]
        var fields: [Int] = []
        for index in 0..<3 {
            guard let value = number(rest, digits: 1...2) else { return nil }
            fields.append(value)
            rest = rest.drop(while: isDigit)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func month(_ token: Substring.UTF8View) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
