import Foundation
import WebImageKit

// The free names the examples of the README, docs/ and DocC use, so that each compiles as written.

let url = URL(string: "https://example.com/photo.jpg")!
let profileURL = url
let pressedURL = url
let urls = [url]
let frameURLs = [url]
let key = url.absoluteString
let data = Data()
let downloadedBytes = Data()
let validators: Data? = nil
let firstBytes = Data()
let body = AsyncStream<Data> { $0.finish() }
let image = Image(pixels: PixelBuffer(width: 1, height: 1))
let grey = image

func show(_ image: Image?) {}
func showPreview(_ image: Image) {}
func draw(_ image: Image?) {}
func log(_ error: any Error) {}
let manager = ImageManager.shared
