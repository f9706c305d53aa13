@_exported public import WebImageCore
@_exported public import WebImageCoders
