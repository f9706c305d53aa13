import Foundation
import WebImageKit

extension ImageRequestPipeline {
    /// The formats whose results can carry the source's ICC profile (`strip_color_profile:0`); others are
    /// converted to sRGB.
    static let profileFormats: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .tiff]

    /// Whether `job`'s result leaves out EXIF, XMP and IPTC (`strip_metadata`, else `IMGPROXY_STRIP_METADATA`).
    func stripsMetadata(_ job: ImageJob) -> Bool {
        job.options.stripMetadata ?? configuration.encoding.stripsMetadata
    }

    /// Whether `job`'s result keeps the EXIF Artist and Copyright fields when it strips metadata.
    func keepsCopyright(_ job: ImageJob) -> Bool {
        job.options.keepCopyright ?? configuration.encoding.keepsCopyright
    }

    /// Whether `job`'s result is converted to sRGB without a profile (`strip_color_profile`, else the setting).
    func stripsColorProfile(_ job: ImageJob) -> Bool {
        job.options.stripColorProfile ?? configuration.encoding.stripsColorProfile
    }

    /// Whether the decode step must keep the source's metadata blocks for `job`.
    func needsSourceMetadata(_ job: ImageJob) -> Bool {
        !stripsMetadata(job) || keepsCopyright(job)
    }

    /// Step "metadata": `image` (the transformed result) with what `job` keeps of `source`'s metadata, as imgproxy
    /// does: everything with `strip_metadata:0`; with it (the default), only the EXIF Artist and Copyright fields
    /// when `keep_copyright` (also the default), else nothing. The profile stays only with `strip_color_profile:0`
    /// and a `format` that embeds one; otherwise the pixels are converted to sRGB. Encoders set the EXIF
    /// orientation to the pixels' own.
    func withResultMetadata(_ image: Image, source: Image, as format: ImageFormat, _ job: ImageJob) -> Image {
        let metadata: ImageMetadata? = if !stripsMetadata(job) {
            source.metadata
        } else if keepsCopyright(job), let exif = source.metadata?.exif {
            ImageMetadata(exif: ExifBlock.copyrightOnly(exif))
        } else {
            nil
        }
        let profiled = image.with(iccProfile: .some(source.iccProfile), metadata: .some(metadata))
        return Self.profileFormats.contains(format) ? profiled : profiled.convertedToSRGB()
    }
}
