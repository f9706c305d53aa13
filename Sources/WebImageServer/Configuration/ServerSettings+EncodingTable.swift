import Foundation
import WebImageKit

extension ServerSettings {
    /// The settings of ``ImageServerConfiguration/Encoding``: metadata kept in results and encoder settings.
    static let encodingTable: [ServerSetting] = [
        ServerSetting(name: "strip-metadata", imgproxy: ["STRIP_METADATA"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.stripsMetadata = try value.flag()
        }, current: { "\($0.configuration.encoding.stripsMetadata)" }),
        ServerSetting(name: "keep-copyright", imgproxy: ["KEEP_COPYRIGHT"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.keepsCopyright = try value.flag()
        }, current: { "\($0.configuration.encoding.keepsCopyright)" }),
        ServerSetting(name: "strip-color-profile", imgproxy: ["STRIP_COLOR_PROFILE"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.stripsColorProfile = try value.flag()
        }, current: { "\($0.configuration.encoding.stripsColorProfile)" }),
        ServerSetting(name: "jpeg-progressive", imgproxy: ["JPEG_PROGRESSIVE"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.progressiveJPEG = try value.flag()
        }, current: { "\($0.configuration.encoding.progressiveJPEG)" }),
        ServerSetting(name: "png-interlaced", imgproxy: ["PNG_INTERLACED"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.interlacedPNG = try value.flag()
        }, current: { "\($0.configuration.encoding.interlacedPNG)" }),
        ServerSetting(name: "png-quantize", imgproxy: ["PNG_QUANTIZE"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.quantizesPNG = try value.flag()
        }, current: { "\($0.configuration.encoding.quantizesPNG)" }),
        ServerSetting(name: "png-quantization-colors", imgproxy: ["PNG_QUANTIZATION_COLORS"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.pngQuantizationColors = try Self.integer(value, in: 2...256)
        }, current: { "\($0.configuration.encoding.pngQuantizationColors)" }),
        ServerSetting(name: "webp-effort", imgproxy: ["WEBP_EFFORT"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.webpEffort = try Self.integer(value, in: 0...6)
        }, current: { "\($0.configuration.encoding.webpEffort)" }),
        ServerSetting(name: "avif-speed", imgproxy: ["AVIF_SPEED"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.avifSpeed = try Self.integer(value, in: 0...9)
        }, current: { "\($0.configuration.encoding.avifSpeed)" }),
        ServerSetting(name: "jxl-effort", imgproxy: ["JXL_EFFORT"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.encoding.jxlEffort = try Self.integer(value, in: 1...9)
        }, current: { "\($0.configuration.encoding.jxlEffort)" }),
    ]

    /// An integer in `range`.
    static func integer(_ value: SettingValue, in range: ClosedRange<Int>) throws(ServerSettingsError) -> Int {
        let number = try value.integer()
        guard range.contains(number) else { throw value.invalid("must be from \(range.lowerBound) to \(range.upperBound)") }
        return number
    }
}
