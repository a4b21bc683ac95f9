// The HTTP vocabulary (HTTPMethod, HTTPStatus, HTTPHeaders, HTTPServer.Configuration) is part
// of the framework's surface: `import Web` is all an application needs.
@_exported public import HTTP1
