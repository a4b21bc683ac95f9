import Web

/// A page that only says something: an error (a bad request that must not be redirected, a
/// form posted without its CSRF token, too many attempts) or a notice ("signed out").
enum MessagePage {
    static func error(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = [:]) -> PageResponse {
        PageResponse(status: status, html: PageLayout.render(
            title: status.code >= 500 ? "TIL is busy" : "Something is wrong",
            "<p class=\"error\" role=\"alert\">\(message)</p>"), headers: headers)
    }

    static func notice(title: String, _ message: String) -> PageResponse {
        PageResponse(html: PageLayout.render(title: title, "<p>\(message)</p>"))
    }
}
