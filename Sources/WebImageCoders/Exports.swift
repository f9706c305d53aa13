@_exported public import WebImageCore
