extension ProcessingOptions {
    /// Applies one option of a URL or preset, by its long or short name, as imgproxy does: arguments left
    /// out or empty keep their current values (`rs:fill::300` sets the type and the height only).
    mutating func apply(_ option: RawOption, presets: ProcessingPresets, using chain: [String] = []) throws(ImgproxyURLError) {
        let name = option.name
        let arguments = option.arguments
        switch name {
        case "resize", "rs":
            try OptionArguments.expectCount(option, 1...8)
            if !arguments[0].isEmpty { resizingType = try Self.resizingType(arguments[0], option: name) }
            try applySize(arguments.dropFirst(), option: name)
        case "size", "s":
            try OptionArguments.expectCount(option, 1...7)
            try applySize(arguments[...], option: name)
        case "resizing_type", "rt":
            try OptionArguments.expectCount(option, 1...1)
            resizingType = try Self.resizingType(arguments[0], option: name)
        case "width", "w":
            try OptionArguments.expectCount(option, 1...1)
            width = try OptionArguments.nonNegativeInt(arguments[0], option: name)
        case "height", "h":
            try OptionArguments.expectCount(option, 1...1)
            height = try OptionArguments.nonNegativeInt(arguments[0], option: name)
        case "dpr":
            try OptionArguments.expectCount(option, 1...1)
            dpr = try OptionArguments.positiveDouble(arguments[0], option: name)
        case "enlarge", "el":
            try OptionArguments.expectCount(option, 1...1)
            enlarge = try OptionArguments.bool(arguments[0], option: name)
        case "extend", "ex":
            try OptionArguments.expectCount(option, 1...4)
            try applyExtend(arguments[...], option: name)
        case "min-width", "mw":
            try OptionArguments.expectCount(option, 1...1)
            minWidth = try OptionArguments.nonNegativeInt(arguments[0], option: name)
        case "min-height", "mh":
            try OptionArguments.expectCount(option, 1...1)
            minHeight = try OptionArguments.nonNegativeInt(arguments[0], option: name)
        case "zoom", "z":
            try OptionArguments.expectCount(option, 1...2)
            zoomX = try OptionArguments.positiveDouble(arguments[0], option: name)
            zoomY = try arguments.count > 1 ? OptionArguments.positiveDouble(arguments[1], option: name) : zoomX
        case "extend_aspect_ratio", "extend_ar", "exar":
            try OptionArguments.expectCount(option, 1...4)
            let (enabled, gravity) = try Self.extendArguments(arguments[...], option: name)
            extendAspectRatio = enabled
            if let gravity { extendAspectRatioGravity = gravity }
        case "trim", "t":
            try OptionArguments.expectCount(option, 1...4)
            trim = try Self.trim(arguments, option: name)
        case "enforce_thumbnail", "eth":
            try OptionArguments.expectCount(option, 1...1)
            enforceThumbnail = try OptionArguments.bool(arguments[0], option: name)
        case "gravity", "g":
            try OptionArguments.expectCount(option, 1...3)
            gravity = try OptionArguments.gravity(arguments[...], option: name)
        case "crop", "c":
            try OptionArguments.expectCount(option, 1...5)
            let width = try OptionArguments.nonNegativeDouble(arguments[0], option: name)
            let height = try arguments.count > 1 ? OptionArguments.nonNegativeDouble(arguments[1], option: name) : 0
            let gravity = try arguments.count > 2 ? OptionArguments.gravity(arguments.dropFirst(2), option: name) : nil
            crop = Crop(width: width, height: height, gravity: gravity)
        case "quality", "q":
            try OptionArguments.expectCount(option, 1...1)
            let value = try OptionArguments.nonNegativeInt(arguments[0], option: name)
            guard value <= 100 else { throw .invalidArgument(name, "quality must be between 0 and 100") }
            quality = value == 0 ? nil : value
        case "format", "f", "ext":
            try OptionArguments.expectCount(option, 1...1)
            format = try OptionArguments.format(arguments[0], option: name)
        case "blur", "bl":
            // 0 turns it off (it may cancel a preset's), as in imgproxy.
            try OptionArguments.expectCount(option, 1...1)
            let sigma = try OptionArguments.nonNegativeDouble(arguments[0], option: name)
            blur = sigma > 0 ? sigma : nil
        case "sharpen", "sh":
            try OptionArguments.expectCount(option, 1...1)
            let sigma = try OptionArguments.nonNegativeDouble(arguments[0], option: name)
            sharpen = sigma > 0 ? sigma : nil
        case "pixelate", "pix":
            try OptionArguments.expectCount(option, 1...1)
            let size = try OptionArguments.nonNegativeInt(arguments[0], option: name)
            pixelate = size > 1 ? size : nil
        case "flip", "fl":
            try OptionArguments.expectCount(option, 1...2)
            if !arguments[0].isEmpty { flipHorizontal = try OptionArguments.bool(arguments[0], option: name) }
            if arguments.count > 1, !arguments[1].isEmpty { flipVertical = try OptionArguments.bool(arguments[1], option: name) }
        case "watermark", "wm":
            try OptionArguments.expectCount(option, 1...5)
            try applyWatermark(arguments, option: name)
        case "padding", "pd":
            try OptionArguments.expectCount(option, 1...4)
            padding = try Self.padding(arguments, option: name)
        case "format_quality", "fq":
            guard !arguments.isEmpty, arguments.count.isMultiple(of: 2) else {
                throw .invalidArgument(name, "expected %format:%quality pairs")
            }
            for index in stride(from: 0, to: arguments.count, by: 2) {
                let format = try OptionArguments.format(arguments[index], option: name)
                let value = try OptionArguments.nonNegativeInt(arguments[index + 1], option: name)
                guard value <= 100 else { throw .invalidArgument(name, "quality must be between 0 and 100") }
                formatQuality[format] = value == 0 ? nil : value
            }
        case "max_bytes", "mb":
            try OptionArguments.expectCount(option, 1...1)
            let bytes = try OptionArguments.nonNegativeInt(arguments[0], option: name)
            maximumBytes = bytes > 0 ? bytes : nil
        case "skip_processing", "skp":
            try OptionArguments.expectCount(option, 1...16)
            skipProcessing = Set(try arguments.map { argument throws(ImgproxyURLError) in
                guard !argument.isEmpty, argument.allSatisfy({ $0.isLetter }) else { throw .invalidArgument(name, "expected format extensions") }
                return argument == "jpeg" ? "jpg" : argument
            })
        case "raw":
            try OptionArguments.expectCount(option, 1...1)
            raw = try OptionArguments.bool(arguments[0], option: name)
        case "preserve_hdr", "ph":
            // Accepted and checked; results are 8 bits per channel in sRGB, so there is no HDR to keep (imgproxy
            // too converts to 8 bits unless asked).
            try OptionArguments.expectCount(option, 1...1)
            _ = try OptionArguments.bool(arguments[0], option: name)
        case "expires", "exp":
            try OptionArguments.expectCount(option, 1...1)
            expires = try OptionArguments.int(arguments[0], option: name)
        case "rotate", "rot":
            try OptionArguments.expectCount(option, 1...1)
            let angle = try OptionArguments.int(arguments[0], option: name)
            guard angle.isMultiple(of: 90) else { throw .invalidArgument(name, "the angle must be a multiple of 90") }
            rotate = (angle % 360 + 360) % 360
        case "auto_rotate", "ar":
            try OptionArguments.expectCount(option, 1...1)
            autoRotate = try OptionArguments.bool(arguments[0], option: name)
        case "background", "bg":
            background = try Self.background(option)
        case "strip_metadata", "sm":
            try OptionArguments.expectCount(option, 1...1)
            stripMetadata = try OptionArguments.bool(arguments[0], option: name)
        case "keep_copyright", "kcr":
            try OptionArguments.expectCount(option, 1...1)
            keepCopyright = try OptionArguments.bool(arguments[0], option: name)
        case "strip_color_profile", "scp":
            try OptionArguments.expectCount(option, 1...1)
            stripColorProfile = try OptionArguments.bool(arguments[0], option: name)
        case "cachebuster", "cb":
            try OptionArguments.expectCount(option, 1...1)
            cacheBuster = arguments[0]
        case "filename", "fn":
            try OptionArguments.expectCount(option, 1...2)
            filename = try Self.filename(arguments, option: name)
        case "return_attachment", "att":
            try OptionArguments.expectCount(option, 1...1)
            returnAttachment = try OptionArguments.bool(arguments[0], option: name)
        case "preset", "pr":
            for preset in arguments {
                try applyPreset(preset, presets: presets, chain: chain, option: name)
            }
        default:
            guard try !applySecurityLimit(option) else { return }
            throw ImgproxyURLError(.unknownOption, option: name, message: "unknown option '\(ImgproxyURLError.quoted(name))'")
        }
    }

    /// `%top:%right:%bottom:%left`, CSS-style: the top for every side not given, the right for the left. At most
    /// 10,000 pixels a side; nil when every side is 0.
    static func padding(_ arguments: [String], option: String) throws(ImgproxyURLError) -> Padding? {
        var sides: [Int?] = []
        for argument in arguments {
            guard !argument.isEmpty else { sides.append(nil); continue }
            let side = try OptionArguments.nonNegativeInt(argument, option: option)
            guard side <= 10_000 else { throw .invalidArgument(option, "a padding is at most 10000 pixels") }
            sides.append(side)
        }
        guard let top = sides.first ?? nil else { throw .invalidArgument(option, "the top padding is needed") }
        let right = (sides.count > 1 ? sides[1] : nil) ?? top
        let bottom = (sides.count > 2 ? sides[2] : nil) ?? top
        let left = (sides.count > 3 ? sides[3] : nil) ?? right
        let padding = Padding(top: top, right: right, bottom: bottom, left: left)
        return padding == Padding(top: 0, right: 0, bottom: 0, left: 0) ? nil : padding
    }

    /// Applies a preset's options, skipping a preset already being applied (imgproxy ignores such recursion).
    mutating func applyPreset(_ preset: String, presets: ProcessingPresets, chain: [String], option: String) throws(ImgproxyURLError) {
        guard let options = presets.options(named: preset) else {
            throw ImgproxyURLError(.unknownPreset, option: option, message: "unknown preset '\(ImgproxyURLError.quoted(preset))'")
        }
        guard !chain.contains(preset) else { return }
        self.presets.append(preset)
        for presetOption in options {
            try apply(presetOption, presets: presets, using: chain + [preset])
        }
    }

    /// `%width:%height:%enlarge:%extend…` of `size` (and of `resize` after its type); empty arguments are skipped.
    private mutating func applySize(_ arguments: ArraySlice<String>, option: String) throws(ImgproxyURLError) {
        let values = Array(arguments)
        if values.count > 0, !values[0].isEmpty { width = try OptionArguments.nonNegativeInt(values[0], option: option) }
        if values.count > 1, !values[1].isEmpty { height = try OptionArguments.nonNegativeInt(values[1], option: option) }
        if values.count > 2, !values[2].isEmpty { enlarge = try OptionArguments.bool(values[2], option: option) }
        if values.count > 3, !values[3].isEmpty { try applyExtend(values[3...], option: option) }
    }

    /// `%extend[:%gravity[:%x:%y]]`; the gravity cannot be smart.
    private mutating func applyExtend(_ arguments: ArraySlice<String>, option: String) throws(ImgproxyURLError) {
        guard !arguments.isEmpty else { return }
        let (enabled, gravity) = try Self.extendArguments(arguments, option: option)
        extend = enabled
        if let gravity { extendGravity = gravity }
    }

    /// The arguments of `extend` and `extend_aspect_ratio`: `%extend[:%gravity[:%x:%y]]`, the gravity nil when
    /// not given; it cannot be smart.
    private static func extendArguments(_ arguments: ArraySlice<String>, option: String) throws(ImgproxyURLError) -> (Bool, Gravity?) {
        guard let first = arguments.first else { return (false, nil) }
        let enabled = try OptionArguments.bool(first, option: option)
        let rest = arguments.dropFirst()
        guard !rest.isEmpty else { return (enabled, nil) }
        let gravity = try OptionArguments.gravity(rest, option: option)
        guard gravity.anchor != .smart else { throw .invalidArgument(option, "extend cannot use smart gravity") }
        return (enabled, gravity)
    }

    /// `%threshold[:%color[:%equal_hor[:%equal_ver]]]`: a threshold ≥ 0 (empty turns trim off), a hex colour
    /// (empty: the top-left pixel's), two booleans.
    static func trim(_ arguments: [String], option: String) throws(ImgproxyURLError) -> Trim? {
        guard !arguments[0].isEmpty else { return nil }
        var trim = Trim(threshold: try OptionArguments.nonNegativeDouble(arguments[0], option: option))
        if arguments.count > 1, !arguments[1].isEmpty {
            guard let color = RGBColor(hex: arguments[1]) else {
                throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(arguments[1]))' is not a hex colour")
            }
            trim.color = color
        }
        if arguments.count > 2, !arguments[2].isEmpty { trim.equalHorizontal = try OptionArguments.bool(arguments[2], option: option) }
        if arguments.count > 3, !arguments[3].isEmpty { trim.equalVertical = try OptionArguments.bool(arguments[3], option: option) }
        return trim
    }

    private static func resizingType(_ value: String, option: String) throws(ImgproxyURLError) -> ResizingType {
        guard let type = ResizingType(rawValue: value) else {
            throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not a resizing type (fit, fill, fill-down, force, auto)")
        }
        return type
    }

    /// `bg:` (none), `bg:%hex` or `bg:%R:%G:%B`.
    private static func background(_ option: RawOption) throws(ImgproxyURLError) -> RGBColor? {
        let arguments = option.arguments
        switch arguments.count {
        case 1 where arguments[0].isEmpty:
            return nil
        case 1:
            guard let color = RGBColor(hex: arguments[0]) else {
                throw .invalidArgument(option.name, "'\(ImgproxyURLError.quoted(arguments[0]))' is not a hex colour")
            }
            return color
        case 3:
            var channels: [UInt8] = []
            for value in arguments {
                guard let channel = UInt8(value) else {
                    throw .invalidArgument(option.name, "'\(ImgproxyURLError.quoted(value))' is not a channel value 0–255")
                }
                channels.append(channel)
            }
            return RGBColor(red: channels[0], green: channels[1], blue: channels[2])
        default:
            throw .invalidArgument(option.name, "expected a hex colour or R:G:B")
        }
    }

    /// `fn:%name[:%encoded]`: percent-escaped, or URL-safe base64 when `encoded` is true.
    private static func filename(_ arguments: [String], option: String) throws(ImgproxyURLError) -> String {
        let encoded = try arguments.count > 1 && !arguments[1].isEmpty ? OptionArguments.bool(arguments[1], option: option) : false
        let decoded: String?
        if encoded {
            decoded = Base64URL.decode(arguments[0]).flatMap { String(validating: $0, as: UTF8.self) }
        } else {
            decoded = PercentEncoding.decode(arguments[0])
        }
        guard let name = decoded, !name.isEmpty else {
            throw .invalidArgument(option, encoded ? "the file name is not URL-safe base64 of UTF-8" : "the file name is not correctly escaped")
        }
        return name
    }
}
