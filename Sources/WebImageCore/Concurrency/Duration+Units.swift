/// The duration in the units the library hands to C libraries, file formats, logs and reports, so that the
/// arithmetic on `components` is written once.
///
/// The whole-unit forms truncate toward zero and trap where the value overflows `Int64` (beyond about 292
/// years for ``nanoseconds``); cap a duration that may come from outside data first.
extension Duration {
    /// The duration in seconds, as a `Double` (a `TimeInterval`).
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds.
    package var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// The duration in whole microseconds.
    package var microseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }

    /// The duration in whole nanoseconds.
    package var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
