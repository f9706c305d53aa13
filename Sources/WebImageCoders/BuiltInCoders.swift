public import WebImageCore

extension ImageCodersManager {
    /// One instance of every coder this package ships, lowest priority first:
    /// JPEG (libjpeg-turbo), PNG (libpng), GIF (giflib), WebP (libwebp) and AVIF (libavif);
    /// then the decode-only TIFF (libtiff), BMP and ICO/CUR (in Swift); HEIC/HEIF (libheif; writes HEIC
    /// through x265), JPEG XL (libjxl); SVG (librsvg) and PDF (poppler-glib), both rasterized, decode only.
    /// Embedded ICC profiles are converted to sRGB through lcms2.
    public static var builtInCoders: [any ImageCoding] {
        [
            JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder(), AVIFCoder(),
            TIFFCoder(), BMPCoder(), ICOCoder(),
            HEICCoder(), JXLCoder(),
            SVGCoder(), PDFCoder(),
        ]
    }

    /// The shared registry, holding ``builtInCoders``; add a coder to it to override a built-in one everywhere.
    public static let shared = ImageCodersManager(coders: builtInCoders)
}
