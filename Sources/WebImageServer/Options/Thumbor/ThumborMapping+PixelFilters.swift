/// thumbor's filters that are pixel operations of their own (``PixelFilter``), read with thumbor's argument forms.
extension ThumborMapping {
    /// The pixel filter `filter` names, or nil when its arguments do not have thumbor's forms or are outside the range
    /// its operation is defined for: such a filter is ignored, as thumbor ignores a filter it cannot read.
    static func pixelFilter(_ filter: ThumborFilter) -> PixelFilter? {
        let pixelFilter = readPixelFilter(filter.name, filter.arguments)
        guard let pixelFilter, (try? pixelFilter.validate()) != nil else { return nil }
        return pixelFilter
    }

    private static func readPixelFilter(_ name: String, _ arguments: [String]) -> PixelFilter? {
        typealias Read = ThumborArguments
        switch (name, arguments.count) {
        case ("brightness", 1): return Read.integer(arguments[0]).map(PixelFilter.brightness)
        case ("contrast", 1): return Read.integer(arguments[0]).map(PixelFilter.contrast)
        case ("saturation", 1): return Read.decimal(arguments[0]).map(PixelFilter.saturation)
        case ("rgb", 3):
            guard let red = Read.integer(arguments[0]), let green = Read.integer(arguments[1]), let blue = Read.integer(arguments[2]) else { return nil }
            return .rgb(red: red, green: green, blue: blue)
        case ("grayscale", 0): return .grayscale
        case ("equalize", 0): return .equalize
        case ("noise", 1), ("noise", 2):
            guard let amount = Read.positive(arguments[0]) else { return nil }
            let seed = arguments.count == 2 ? Read.positive(arguments[1]) : 0
            guard let seed, let seed32 = UInt32(exactly: seed) else { return nil }
            return .noise(amount: amount, seed: seed32)
        case ("round_corner", 4), ("round_corner", 5):
            let radii = arguments[0].split(separator: "|", omittingEmptySubsequences: false).map { Read.positive(String($0)) }
            guard (1...2).contains(radii.count), let horizontal = radii[0], let vertical = radii.last ?? nil,
                  let red = Read.positive(arguments[1]), let green = Read.positive(arguments[2]), let blue = Read.positive(arguments[3]),
                  red <= 255, green <= 255, blue <= 255 else { return nil }
            let transparent = arguments.count == 5 ? Read.boolean(arguments[4]) : false
            guard let transparent else { return nil }
            return .roundCorner(PixelFilter.RoundCorner(
                horizontalRadius: horizontal, verticalRadius: vertical,
                color: RGBColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue)), transparent: transparent))
        case ("convolution", 2), ("convolution", 3):
            let items = arguments[0].split(separator: ";", omittingEmptySubsequences: false).map { Read.decimal(String($0)) }
            guard !items.isEmpty, items.allSatisfy({ $0 != nil }), let columns = Read.positive(arguments[1]) else { return nil }
            let normalize = arguments.count == 3 ? Read.boolean(arguments[2]) : true
            guard let normalize else { return nil }
            return .convolution(PixelFilter.Convolution(items: items.compactMap { $0 }, columns: columns, normalize: normalize))
        case ("fill", 1), ("fill", 2):
            let background: PixelFilter.Fill.Background
            switch arguments[0] {
            case "auto": background = .average
            case "blur": background = .blur
            default: return nil
            }
            let merges = arguments.count == 2 ? Read.boolean(arguments[1]) : false
            guard let merges else { return nil }
            return .fill(PixelFilter.Fill(background: background, mergesTransparency: merges))
        default: return nil
        }
    }
}
